/** `render-farm top`: a live view of the farm (ink), or one plain snapshot with --once. */
import type { Command } from 'commander';
import { configFor, intFlag, printJson } from './common.js';

export default function register(program: Command): void {
  program
    .command('top')
    .description(
      'Live view of the farm from its database (embedded or DATABASE_URL, from any machine): workers, queue depth by kind and customer, running and recent jobs, errors.',
    )
    .option('--once', 'print one snapshot as plain text and exit (the default when stdout is not a terminal)')
    .option('--json', 'with --once: the snapshot as JSON')
    .option('--interval <ms>', 'refresh period (default 1000)')
    .addHelpText(
      'after',
      `
Keys: q quits, up/down select a job, enter shows its detail (request, worker, timings, error, files), esc closes it.

Examples:
  $ render-farm top
  $ DATABASE_URL=postgres://u:p@db/render render-farm top
  $ render-farm top --once --json | jq '.queue'`,
    )
    .action(async (opts: { once?: boolean; json?: boolean; interval?: string }, cmd: Command) => {
      const interval = intFlag('interval', opts.interval, 200, 60_000) ?? 1_000;
      const cfg = configFor(cmd);
      // top only reads: a data dir without a farm is an error, never created
      await (await import('../db/existing-data-dir.js')).requireExistingDataDir(cfg);
      const { openDatabase } = await import('../db/database.js');
      const { farmSnapshot } = await import('../top/farm-snapshot.js');
      const db = await openDatabase(cfg, { poolSize: 3 });
      try {
        if (opts.once || opts.json || !process.stdout.isTTY || !process.stdin.isTTY) {
          const snap = await farmSnapshot(db, { deadAfterS: cfg.workerDeadAfterSeconds });
          if (opts.json) return printJson(snap);
          const { formatTopPlain } = await import('../top/format.js');
          process.stdout.write(formatTopPlain(snap));
          return;
        }
        const { mountTop } = await import('../top/ui/mount.js');
        const { jobDetail } = await import('../top/job-detail.js');
        await mountTop(
          {
            snapshot: () => farmSnapshot(db, { deadAfterS: cfg.workerDeadAfterSeconds }),
            detail: (id) => jobDetail(db, id),
          },
          interval,
        );
      } finally {
        await db.close();
      }
    });
}
