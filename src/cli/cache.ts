/**
 * `render-farm cache stats` and `render-farm cache gc [--dry-run]`: the render cache's size and
 * its retention (src/jobs/cache-stats.ts, src/jobs/retention.ts), on the filesystem store or S3.
 */
import type { Command } from 'commander';
import { configFor, intFlag, printJson, withDb, withExistingDb } from './common.js';
import { table } from './table.js';

export default function register(program: Command): void {
  const cache = program
    .command('cache')
    .description(
      'The render cache (renders\' files in the artifact store): its size and retention. See docs/operating.md, "Storage lifecycle".',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm cache stats
  $ render-farm cache gc --dry-run
  $ RENDER_FARM_STORE_MAX_BYTES=10737418240 render-farm cache gc --json`,
    );

  cache
    .command('stats')
    .description(
      'Bytes and renders held, hit rate, the least recently requested render, by format and profile, and the limits',
    )
    .option('--json', 'as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm cache stats
  $ render-farm cache stats --json | jq '.usage.renderBytes'`,
    )
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const cfg = configFor(cmd);
      await withExistingDb(cfg, async (db) => {
        const { cacheStats, formatBytes } = await import('../jobs/cache-stats.js');
        const s = await cacheStats(db, cfg);
        if (opts.json) return printJson(s);
        const p = s.policy;
        const lines = [
          `renders   ${s.renders} holding ${formatBytes(s.usage.renderBytes)}${s.unmeasured ? ` (${s.unmeasured} not measured yet)` : ''}`,
          `budget    ${p.maxBytes ? formatBytes(p.maxBytes) : 'none'}; files idle ${p.maxIdleDays === null ? 'forever' : `${p.maxIdleDays} days`} go; kept at least ${p.keepRecentMinutes} min after a request`,
          `hit rate  ${s.hitRate === null ? '-' : `${(s.hitRate * 100).toFixed(1)}%`} of ${s.jobs} jobs found their render already there`,
          `oldest    ${s.oldestRequestedAt ? `last requested ${new Date(s.oldestRequestedAt).toISOString()}` : '-'}`,
          `pregen    ${s.usage.pregen?.entries ?? 0} entries, ${formatBytes(s.usage.pregen?.bytes ?? 0)} (kept until pregen rm)`,
          `swept     ${s.usage.sweptRenders} renders, ${formatBytes(s.usage.sweptBytes)}, ${s.usage.rowsDeleted} rows; ${s.expired} expired renders not asked for again; last sweep ${s.usage.lastSweepAt ? new Date(s.usage.lastSweepAt).toISOString() : 'never'}`,
          '',
        ];
        process.stdout.write(lines.join('\n'));
        if (s.byKind.length)
          process.stdout.write(
            '\n' +
              table(
                ['FORMAT', 'PROFILE', 'RENDERS', 'BYTES'],
                s.byKind.map((g) => [g.format, g.profile, String(g.renders), formatBytes(g.bytes)]),
              ),
          );
      });
    });

  cache
    .command('gc')
    .description(
      'Run one retention pass now (what the workers run every RENDER_FARM_RETENTION_SWEEP_MINUTES): remove files past the age or byte budget, then old rows',
    )
    .option('--dry-run', 'only say what would be removed')
    .option('--batch <n>', 'rows per statement and keys per delete (default 1000)')
    .option('--json', 'as JSON')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm cache gc --dry-run
  $ RENDER_FARM_STORE_MAX_AGE_DAYS=7 render-farm cache gc --json`,
    )
    .action(async (opts: { dryRun?: boolean; batch?: string; json?: boolean }, cmd: Command) => {
      const cfg = configFor(cmd);
      const batch = intFlag('batch', opts.batch, 1, 10_000);
      await withDb(cfg, async (db) => {
        const { openArtifactStore } = await import('../storage/open-artifact-store.js');
        const { runRetention } = await import('../jobs/retention.js');
        const { formatBytes } = await import('../jobs/cache-stats.js');
        const store = await openArtifactStore(cfg);
        const r = await runRetention(db, store, cfg, { dryRun: opts.dryRun, batch });
        if (opts.json) return printJson({ store: store.kind, ...r });
        const would = r.dryRun ? 'would remove' : 'removed';
        const a = r.artifacts;
        const byReason = (why: string) => a.renders.filter((x) => x.reason === why).length;
        const rows = r.rows;
        process.stdout.write(
          [
            `${r.dryRun ? 'dry run: ' : ''}${would} the files of ${a.renders.length} renders (${byReason('age')} idle too long, ${byReason('budget')} over the byte budget), ${formatBytes(a.freedBytes)}${r.dryRun ? '' : `, ${a.deletedFiles} files`}`,
            `store (${store.kind}): ${formatBytes(a.bytesBefore)} -> ${formatBytes(a.bytesAfter)}`,
            `rows ${would}: ${rows.jobs} jobs, ${rows.renders} renders, ${rows.chunks} chunks, ${rows.events} events, ${rows.deliveries} webhook deliveries, ${rows.tombstones} expired-job ids`,
            '',
          ].join('\n'),
        );
      });
    });
}
