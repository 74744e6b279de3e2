/** `render-farm builds list|create|show`: saved builds that `/render-by-share-code` renders. */
import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { CATEGORIES } from '../model/part.js';
import { UsageError } from './errors.js';
import { configFor, intFlag, printJson, subcommand, withDb, withExistingDb } from './common.js';
import { collect, parsePartsFlags } from './parts-flag.js';

async function readState(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read --state file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--state file ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Registers the command on the program (see index.ts). */
export default function register(program: Command): void {
  const builds = program
    .command('builds')
    .description('Saved builds (share codes) of catalog parts.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm builds list\n  $ render-farm builds show DEMO-GLASS\n  $ render-farm builds create --name "My rig" --parts PCCase=adp88gxul --parts GPU=okgxgd18p',
    );

  builds
    .command('list')
    .description('Saved builds, newest first, a page at a time: share code, name, part count, created.')
    .option('--limit <n>', 'builds per page, 1 to 100 (default 20)')
    .option('--skip <n>', 'builds to skip: the next page starts at --skip plus --limit (default 0)')
    .option('--json', 'machine-readable output: the page, the total and the command for the next page')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm builds list
  $ render-farm builds list --limit 50 --skip 50
  $ render-farm builds list --json | jq -r '.items[].shareCode'`,
    )
    .action(async (opts: { limit?: string; skip?: string; json?: boolean }, cmd: Command) => {
      const { listBuilds, MAX_BUILDS_PAGE } = await import('../catalog/builds.js');
      const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
      const limit = intFlag('limit', opts.limit, 1, MAX_BUILDS_PAGE) ?? 20;
      const skip = intFlag('skip', opts.skip, 0, Number.MAX_SAFE_INTEGER) ?? 0;
      const cfg = configFor(cmd);
      const { items, total } = await withExistingDb(cfg, async (db) => {
        // the demo builds show on a fresh data dir, as under `serve`
        if (cfg.seedDemo) await seedDemoCatalog(db);
        return listBuilds(db, { limit, skip });
      });
      const hasNext = skip + items.length < total;
      const next = hasNext ? `render-farm builds list --limit ${limit} --skip ${skip + limit}` : null;
      if (opts.json)
        return printJson({
          items,
          pagination: {
            total,
            limit,
            skip,
            hasNext,
            next: hasNext ? { skip: skip + limit, limit, command: next } : null,
          },
        });
      if (!items.length) {
        process.stdout.write(
          total
            ? `no builds past ${skip} (there are ${total})\n`
            : 'no builds: create one with "render-farm builds create"\n',
        );
        return;
      }
      const { table } = await import('./table.js');
      const rows = items.map((b) => [b.shareCode, b.name, String(b.partCount), b.createdAt.toISOString()]);
      process.stdout.write(table(['SHARE CODE', 'NAME', 'PARTS', 'CREATED'], rows));
      process.stdout.write(`${skip + 1}-${skip + items.length} of ${total}${next ? `; next page: ${next}` : ''}\n`);
    });

  builds
    .command('create')
    .description('Save a build; every part ID must exist in its category. Prints the share code.')
    .requiredOption('--name <name>', 'build name')
    .option(
      '--parts <CAT=id,id...>',
      'parts as CATEGORY=id[,id...] pairs (several after one flag, or repeat the flag)',
      collect,
      [],
    )
    .option('--state <file.json>', 'saved interactive state: fan slots, radiator slot, RGB colour')
    .option('--share-code <code>', 'share code to use (default: generated, like B-7KQ2MZ4P)')
    .option('--description <text>', 'build description')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
Categories: ${CATEGORIES.join(', ')}

Examples:
  $ render-farm builds create --name "My rig" --parts PCCase=adp88gxul --parts GPU=okgxgd18p --parts CPU=6h3vq07o2
  $ render-farm builds create --name "Twin kits" --parts "RAM=1bqkgwrfn,1bqkgwrfn CaseFan=rskqnnium" --share-code MY-RIG
  $ echo '{"fans":[{"slot":"front-1"}],"radiator":{"slot":"top"},"rgb":{"color":"#35c8ff"}}' > state.json
  $ render-farm builds create --name "Top rad" --parts CPUCooler=hi7uy8hyv --state state.json --json`,
    )
    .action(
      async (
        opts: {
          name: string;
          parts: string[];
          state?: string;
          shareCode?: string;
          description?: string;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const parts = parsePartsFlags(opts.parts);
        if (!Object.keys(parts).length) throw new UsageError('give at least one --parts CATEGORY=id');
        const state = opts.state !== undefined ? await readState(opts.state) : undefined;
        const { createBuild, CatalogValidationError } = await import('../catalog/builds.js');
        const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
        const cfg = configFor(cmd);
        const build = await withDb(cfg, async (db) => {
          // demo part IDs (as in the examples) must resolve on a fresh data dir, as under `serve`
          if (cfg.seedDemo) await seedDemoCatalog(db);
          try {
            return await createBuild(db, {
              name: opts.name,
              description: opts.description,
              shareCode: opts.shareCode,
              parts,
              interactiveState: state,
            });
          } catch (err) {
            if (err instanceof CatalogValidationError) {
              const where = err.code === 'invalid_state' && opts.state ? ` (in ${opts.state})` : '';
              throw new UsageError(`${err.message}${where}`);
            }
            throw err;
          }
        });
        if (opts.json) printJson(build);
        else process.stdout.write(`created build ${build.shareCode} ("${build.name}")\n`);
      },
    );

  subcommand(builds, 'show <share-code>', {
    description: 'Show a build: its parts by category (with names) and saved state.',
    json: true,
    examples: ['render-farm builds show DEMO-GLASS', 'render-farm builds show DEMO-AIO360 --json'],
  }).action(async (code: string, opts: { json?: boolean }, cmd: Command) => {
    const { getBuild } = await import('../catalog/builds.js');
    const { getPartsByIds } = await import('../catalog/parts.js');
    const { seedDemoCatalog } = await import('../catalog/seed-demo.js');
    const cfg = configFor(cmd);
    const result = await withExistingDb(cfg, async (db) => {
      if (cfg.seedDemo) await seedDemoCatalog(db);
      const build = await getBuild(db, code);
      if (!build) return null;
      const rows = await getPartsByIds(db, Object.values(build.parts).flat() as string[]);
      return { build, names: new Map(rows.map((r) => [r.id, r.name])) };
    });
    // an unknown share code is unknown input, as in render and pregen: exit 2
    if (!result) throw new UsageError(`no build with share code "${code}" (see: render-farm builds list)`);
    const { build, names } = result;
    if (opts.json) return printJson({ ...build, partNames: Object.fromEntries(names) });
    const lines = [`${build.shareCode}: ${build.name}`];
    if (build.description) lines.push(build.description);
    for (const [category, ids] of Object.entries(build.parts)) {
      for (const id of ids ?? [])
        lines.push(`  ${category.padEnd(11)} ${id}  ${names.get(id) ?? '(not in the catalog)'}`);
    }
    lines.push(
      build.interactiveState ? `state: ${JSON.stringify(build.interactiveState)}` : 'state: none (default placement)',
    );
    process.stdout.write(lines.join('\n') + '\n');
  });
}
