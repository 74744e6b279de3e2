/** `render-farm db migrate|status`. */
import type { Command } from 'commander';
import { configFor, printJson, subcommand } from './common.js';

export default function register(program: Command): void {
  const db = subcommand(program, 'db', {
    description: 'Database schema: apply and inspect migrations (sql/).',
    examples: ['render-farm db status', 'render-farm db migrate --database-url postgres://u:p@db/render'],
  });
  subcommand(db, 'migrate', {
    description: 'Apply pending migrations (also done on serve/up start). Idempotent.',
    examples: ['render-farm db migrate', 'DATABASE_URL=postgres://u:p@db/render render-farm db migrate'],
  }).action(async (_opts, cmd: Command) => {
    const cfg = configFor(cmd);
    const { openDatabase } = await import('../db/database.js');
    const { migrate } = await import('../db/migrate.js');
    const handle = await openDatabase(cfg);
    try {
      const applied = await migrate(handle.pool);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
    } finally {
      await handle.close();
    }
  });
  subcommand(db, 'status', {
    description: 'List migrations and whether each is applied.',
    json: true,
    examples: ['render-farm db status --json'],
  }).action(async (opts: { json?: boolean }, cmd: Command) => {
    const cfg = configFor(cmd);
    const { migrationStatus } = await import('../db/migrate.js');
    // status reads only: open without migrating, and never make a data dir
    await (await import('../db/existing-data-dir.js')).requireExistingDataDir(cfg);
    const { openDatabase } = await import('../db/database.js');
    const handle = await openDatabase(cfg);
    try {
      const status = await migrationStatus(handle.pool);
      if (opts.json) printJson(status);
      else
        for (const s of status)
          process.stdout.write(
            `${s.applied ? 'applied' : 'pending'}  ${s.version}${s.appliedAt ? `  ${s.appliedAt.toISOString()}` : ''}\n`,
          );
    } finally {
      await handle.close();
    }
  });
}
