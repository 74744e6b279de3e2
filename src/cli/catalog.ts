/** `render-farm catalog import|stats`: load BuildCores OpenDB records, count parts. */
import type { Command } from 'commander';
import type { CategoryImportSummary, ImportSummary } from '../catalog/importer.js';
import { ExitError, UsageError } from './errors.js';
import { configFor, printJson, withDb } from './common.js';

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ')).join('\n');
}

function importTable(s: ImportSummary): string {
  const line = (name: string, c: Omit<CategoryImportSummary, 'category'>) => [
    name,
    String(c.read),
    String(c.inserted),
    String(c.updated),
    String(c.unchanged),
    String(c.skipped),
    (c.elapsedMs / 1000).toFixed(1),
    String(c.partsPerSecond),
  ];
  const rows = [
    ['category', 'read', 'new', 'updated', 'unchanged', 'skipped', 'seconds', 'parts/s'],
    ...s.categories.map((c) => line(c.category, c)),
    line('total', s.total),
  ];
  const out = [`imported from ${s.dir}`, pad(rows)];
  for (const r of s.total.reasons) out.push(`skipped ${r.count}: ${r.reason} (e.g. ${r.examples.join(', ')})`);
  if (s.ignoredFolders.length) out.push(`ignored folders (not renderable categories): ${s.ignoredFolders.join(', ')}`);
  return out.join('\n') + '\n';
}

/** Registers the command on the program (see index.ts). */
export default function register(program: Command): void {
  const catalog = program
    .command('catalog')
    .description('The parts catalog: import BuildCores OpenDB, show counts.')
    .addHelpText('after', '\nExamples:\n  $ render-farm catalog import ./open-db\n  $ render-farm catalog stats');

  catalog
    .command('import <opendb-dir>')
    .description(
      'Import OpenDB records (<dir>/open-db/<Category>/<uuid>.json, or the open-db folder itself). Re-running updates changed parts only.',
    )
    .option('--json', 'machine-readable summary')
    .option('--no-thumbnails', 'do not queue part thumbnails for the workers (queued by default at low priority)')
    .addHelpText(
      'after',
      `
Examples:
  $ git clone --depth 1 https://github.com/buildcores/buildcores-open-db /tmp/opendb
  $ render-farm catalog import /tmp/opendb
  $ render-farm catalog import /tmp/opendb/open-db --json > import.json`,
    )
    .action(async (dir: string, opts: { json?: boolean; thumbnails?: boolean }, cmd: Command) => {
      const { importOpenDb } = await import('../catalog/importer.js');
      const cfg = configFor(cmd);
      const tty = !opts.json && process.stderr.isTTY;
      let thumbnailsQueued = 0;
      const summary = await withDb(cfg, async (db) => {
        try {
          const result = await importOpenDb(db, dir, {
            onProgress: tty
              ? (p) => process.stderr.write(`\r${p.overallDone}/${p.overallTotal} records (${p.category})   `)
              : undefined,
          });
          // product shots of new and changed parts, rendered by workers after any renders
          if (opts.thumbnails !== false) {
            const { queueImportThumbnails } = await import('../jobs/thumbnail-jobs.js');
            thumbnailsQueued = await queueImportThumbnails(db, result);
          }
          return result;
        } finally {
          if (tty) process.stderr.write('\r\x1b[K');
        }
      });
      if (opts.json) printJson({ ...summary, thumbnailsQueued });
      else {
        process.stdout.write(importTable(summary));
        if (thumbnailsQueued) process.stdout.write(`queued ${thumbnailsQueued} part thumbnails for the workers (low priority)\n`);
      }
      if (summary.total.read > 0 && summary.total.imported === 0) {
        throw new ExitError(1, `none of the ${summary.total.read} records could be imported`);
      }
    });

  catalog
    .command('stats')
    .description('Parts per category (demo and imported) and the number of saved builds.')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExamples:\n  $ render-farm catalog stats\n  $ render-farm catalog stats --json')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { catalogStats, seedDemoCatalog } = await import('../catalog/repository.js');
      const cfg = configFor(cmd);
      const stats = await withDb(cfg, async (db) => {
        // report what `serve` would show: the demo catalog is part of every database
        if (cfg.seedDemo) await seedDemoCatalog(db);
        return catalogStats(db);
      });
      if (opts.json) return printJson(stats);
      const rows = [
        ['category', 'demo', 'imported', 'total'],
        ...stats.categories.map((c) => [c.category, String(c.demo), String(c.imported), String(c.total)]),
      ];
      process.stdout.write(`${pad(rows)}\n${stats.parts} parts, ${stats.builds} builds\n`);
    });
}
