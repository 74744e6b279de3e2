/** `render-farm catalog import|stats|parts`: load BuildCores OpenDB records, count parts, list their IDs. */
import type { Command } from 'commander';
import type { CategoryImportSummary, ImportSummary } from '../catalog/importer.js';
import { ExitError, UsageError } from './errors.js';
import { CATEGORIES } from '../model/part.js';
import { choiceFlag, configFor, intFlag, printJson, subcommand, withDb, withExistingDb } from './common.js';

/** Most parts one `catalog parts` page shows, and the default (the API's /available-parts has the same). */
const MAX_PARTS_PAGE = 100;
const DEFAULT_PARTS_PAGE = 20;

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  '))
    .join('\n');
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
  const catalog = subcommand(program, 'catalog', {
    description: 'The parts catalog: import BuildCores OpenDB, show counts, list parts and their IDs.',
    examples: [
      'render-farm catalog import ./open-db',
      'render-farm catalog stats',
      'render-farm catalog parts --category GPU --search 4070',
    ],
  });

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
        if (thumbnailsQueued)
          process.stdout.write(`queued ${thumbnailsQueued} part thumbnails for the workers (low priority)\n`);
      }
      if (summary.total.read > 0 && summary.total.imported === 0) {
        throw new ExitError(1, `none of the ${summary.total.read} records could be imported`);
      }
    });

  subcommand(catalog, 'stats', {
    description: 'Parts per category (demo and imported) and the number of saved builds.',
    json: true,
    examples: ['render-farm catalog stats', 'render-farm catalog stats --json'],
  }).action(async (opts: { json?: boolean }, cmd: Command) => {
    const { catalogStats } = await import('../catalog/stats.js');
    const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
    const cfg = configFor(cmd);
    const stats = await withExistingDb(cfg, async (db) => {
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

  catalog
    .command('parts')
    .description(
      'Parts and their IDs (for builds create, render --parts, models add), a page at a time: by category, then name.',
    )
    .option('--category <category>', `only this category: ${CATEGORIES.join(', ')}`)
    .option('--search <text>', 'only parts with this text in their name or ID (any case)')
    .option('--limit <n>', `parts per page, 1 to ${MAX_PARTS_PAGE} (default ${DEFAULT_PARTS_PAGE})`)
    .option('--offset <n>', 'parts to skip (default 0)')
    .option('--page <n>', 'page number from 1, instead of --offset')
    .option('--json', 'machine-readable output: the page, the total and the command for the next page')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm catalog parts --category GPU
  $ render-farm catalog parts --category GPU --search 4070
  $ render-farm catalog parts --category PCCase --limit 50 --page 2
  $ render-farm catalog parts --search noctua --json | jq -r '.items[].id'`,
    )
    .action(
      async (
        opts: { category?: string; search?: string; limit?: string; offset?: string; page?: string; json?: boolean },
        cmd: Command,
      ) => {
        const category = choiceFlag('category', opts.category, CATEGORIES);
        const limit = intFlag('limit', opts.limit, 1, MAX_PARTS_PAGE) ?? DEFAULT_PARTS_PAGE;
        if (opts.offset !== undefined && opts.page !== undefined)
          throw new UsageError('give --offset or --page, not both');
        const page = intFlag('page', opts.page, 1, Number.MAX_SAFE_INTEGER);
        const offset =
          page !== undefined ? (page - 1) * limit : (intFlag('offset', opts.offset, 0, Number.MAX_SAFE_INTEGER) ?? 0);
        const { findParts } = await import('../catalog/parts.js');
        const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
        const { currentModelRecords } = await import('../part-models/model-library.js');
        const cfg = configFor(cmd);
        const { items, total, models } = await withExistingDb(cfg, async (db) => {
          // the demo catalog is part of every database, as under `serve`
          if (cfg.seedDemo) await seedDemoCatalog(db);
          const found = await findParts(db, { category, search: opts.search }, { limit, skip: offset });
          return {
            ...found,
            models: await currentModelRecords(
              db,
              found.items.map((p) => p.id),
            ),
          };
        });
        const hasNext = offset + items.length < total;
        // the next page in the form the user paged with
        const nextCommand = hasNext
          ? partsCommand({
              category,
              search: opts.search,
              limit,
              ...(page !== undefined ? { page: page + 1 } : { offset: offset + limit }),
            })
          : null;
        if (opts.json) {
          return printJson({
            items: items.map((p) => ({
              id: p.id,
              category: p.category,
              name: p.name,
              model: models[p.id]?.sha256 ?? null,
            })),
            pagination: {
              total,
              limit,
              offset,
              page: Math.floor(offset / limit) + 1,
              hasNext,
              next: hasNext ? { offset: offset + limit, command: nextCommand } : null,
            },
          });
        }
        const what = `${category ? `${category} ` : ''}parts${opts.search ? ` matching "${opts.search}"` : ''}`;
        if (!items.length) {
          process.stdout.write(
            total
              ? `no ${what} past ${offset} (there are ${total})\n`
              : `no ${what}${category || opts.search ? '' : ': import some with "render-farm catalog import"'}\n`,
          );
          return;
        }
        const { table } = await import('./table.js');
        const rows = items.map((p) => [
          p.id,
          p.category,
          models[p.id] ? models[p.id]!.sha256.slice(0, 12) : '-',
          p.name,
        ]);
        process.stdout.write(table(['ID', 'CATEGORY', 'MODEL', 'NAME'], rows));
        process.stdout.write(
          `${offset + 1}-${offset + items.length} of ${total} ${what}${nextCommand ? `; next page: ${nextCommand}` : ''}\n`,
        );
      },
    );
}

/** The `catalog parts` command line for a page, quoting a search with spaces. */
function partsCommand(p: {
  category?: string;
  search?: string;
  limit: number;
  page?: number;
  offset?: number;
}): string {
  const quote = (v: string) => (/^[\w.:-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);
  return [
    'render-farm catalog parts',
    ...(p.category ? [`--category ${p.category}`] : []),
    ...(p.search ? [`--search ${quote(p.search)}`] : []),
    `--limit ${p.limit}`,
    p.page !== undefined ? `--page ${p.page}` : `--offset ${p.offset}`,
  ].join(' ');
}
