/**
 * `render-farm pregen`: fills the pregenerated cache behind POST /render-build-experimental
 * (src/pregen). `pregen ls` and `pregen rm` inspect and prune it. Flags are parsed here; the
 * work (and the ink UI) loads lazily from src/pregen.
 */
import type { Command } from 'commander';
import { ExitError, UsageError } from './errors.js';
import { DEFAULT_FORMAT, DEFAULT_PROFILE, FORMATS, PROFILES } from '../model/render-defaults.js';
import { choiceFlag, choiceListFlag, configFor, intFlag, printJson } from './common.js';
import { addRenderOptionFlags, parseRenderOptionFlags } from './render-option-flags.js';
import { settingOption } from './setting-flags.js';

interface RunFlags {
  builds?: string;
  matrix?: string;
  from?: string;
  limit?: string;
  formats?: string;
  profiles?: string;
  sizes?: string;
  concurrency?: string;
  farm?: boolean;
  stale?: boolean;
  dryRun?: boolean;
  json?: boolean;
  plain?: boolean;
  thumbnails?: boolean;
  category?: string;
  force?: boolean;
  /** the render option flags (render-option-flags.ts) */
  [option: string]: unknown;
}

/** `a, b or c`: help for a flag that takes one of the model's values. */
const orList = (values: readonly string[]) => `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export default function register(program: Command): void {
  const pregen = program
    .command('pregen')
    .description(
      'Fill the pregenerated cache served by POST /render-build-experimental; resumable. See also: pregen ls, pregen rm.',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm pregen --builds all                   # pregen run, the default sub-command
  $ render-farm pregen ls --stale
  $ render-farm pregen rm --stale --dry-run`,
    );

  const run = pregen
    .command('run', { isDefault: true })
    .description(
      'Render every missing combination (the default sub-command: `pregen --builds all` runs it; `pregen run --help` lists its flags).',
    )
    .option('--builds <codes>', 'saved builds: all, or share codes (comma-separated); their parts, without saved state')
    .option(
      '--matrix <spec>',
      'cartesian product: "PCCase=a,b GPU=x,y,z CPUCooler=*" (* = every part of the category, + joins IDs)',
    )
    .option('--from <file>', 'a JSON array or NDJSON file of part maps ({"PCCase": ["id"], ...})')
    .option('--limit <n>', 'at most n combinations')
    .option('--formats <list>', `${FORMATS.join(',')} (default ${DEFAULT_FORMAT}, as the API)`)
    .option('--profiles <list>', `${PROFILES.join(',')} (default ${DEFAULT_PROFILE}, as the API)`)
    .option('--sizes <list>', 'frame sizes WxH,... (default: video 1280x720, sprite 512x512)');
  // every render option but those given as lists above
  addRenderOptionFlags(run, ['format', 'profile', 'width', 'height'])
    .option('--concurrency <n>', 'renderers at once, each with its own browser (default 1; about one per 2 cores)')
    .option('--farm', 'enqueue the renders on the job farm and follow them, instead of rendering here')
    .option(
      '--stale',
      "also re-render stale entries: drawn by an older renderer version, or before a part's model changed",
    )
    .option('--thumbnails', 'render part thumbnails (the image of GET /assets/parts/:id) instead')
    .option('--category <list>', 'with --thumbnails: only these categories')
    .option('--force', 'with --thumbnails: re-render thumbnails that are current')
    .option('--dry-run', 'list what would render; render nothing')
    .option('--json', 'print a JSON summary (no UI)')
    .option('--plain', 'plain progress lines even on a terminal')
    .addOption(settingOption('glBackend'))
    .addHelpText(
      'after',
      `
Interrupt with Ctrl-C at any time: finished items stay, nothing half-written is kept, and
running the same command again renders only what is missing. Exit code 1 if any item failed.

Examples:
  $ render-farm pregen --builds all --formats sprite --profiles cinematic
  $ render-farm pregen --matrix "PCCase=adp88gxul,bgmmbze4a GPU=okgxgd18p,f24xmekd3" --formats video,sprite --sizes 512x512 --concurrency 2
  $ render-farm pregen --from combos.ndjson --formats sprite --profiles fast --dry-run
  $ render-farm pregen --builds all --farm            # through the workers
  $ render-farm pregen --thumbnails --category GPU,CPUCooler`,
    )
    .action(async (flags: RunFlags, cmd: Command) => {
      const code = await runCommand(flags, cmd);
      if (code === 130) throw new ExitError(130, 'pregen interrupted; run the same command again to resume');
      if (code !== 0) throw new ExitError(code, 'some items failed (see above)');
    });

  pregen
    .command('ls')
    .description(
      'List pregenerated entries, newest first (stale = drawn by an older renderer, or before a part model changed).',
    )
    .option('--format <format>', orList(FORMATS))
    .option('--profile <profile>', orList(PROFILES))
    .option('--source <source>', 'e.g. build:DEMO-GLASS, matrix, file:list.ndjson')
    .option('--stale', 'only stale entries')
    .option('--limit <n>', 'at most n entries (default 50)')
    .option('--json', 'JSON output')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm pregen ls
  $ render-farm pregen ls --format sprite --source build:DEMO-GLASS
  $ render-farm pregen ls --stale --json --limit 1000`,
    )
    .action(
      async (
        flags: { format?: string; profile?: string; source?: string; stale?: boolean; limit?: string; json?: boolean },
        cmd: Command,
      ) => {
        const cfg = configFor(cmd);
        const limit = intFlag('limit', flags.limit, 1, 100_000) ?? 50;
        const format = choiceFlag('format', flags.format, FORMATS);
        const profile = choiceFlag('profile', flags.profile, PROFILES);
        const { withExistingDb } = await import('./common.js');
        const { listCache, cacheTable } = await import('../pregen/cache-admin.js');
        const { cacheTotals } = await import('../pregen/cache-repository.js');
        const { rendererVersion } = await import('../render/renderer-version.js');
        const version = await rendererVersion();
        await withExistingDb(cfg, async (db) => {
          const entries = await listCache(
            db,
            { format, profile, source: flags.source, staleAgainst: flags.stale ? version : undefined, limit },
            version,
          );
          const totals = await cacheTotals(db);
          if (flags.json) printJson({ rendererVersion: version, totals, entries });
          else {
            process.stdout.write(entries.length ? cacheTable(entries) : 'no pregenerated entries match\n');
            process.stdout.write(
              `${totals.entries} entries in the cache in all (${(totals.bytes / 1024 / 1024).toFixed(1)} MiB); renderer ${version}\n`,
            );
          }
        });
      },
    );

  pregen
    .command('rm [keys...]')
    .description('Remove entries (rows and files): by key prefix, or by filter.')
    .option('--all', 'every entry')
    .option('--stale', "entries drawn by an older renderer or with a part's older model")
    .option('--format <format>', orList(FORMATS))
    .option('--profile <profile>', orList(PROFILES))
    .option('--source <source>', 'e.g. build:DEMO-GLASS')
    .option('--dry-run', 'list what would be removed')
    .option('--json', 'JSON output')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm pregen rm 3fa85f64                    # key prefixes, as pregen ls shows them
  $ render-farm pregen rm --stale --dry-run
  $ render-farm pregen rm --format video --profile fast`,
    )
    .action(
      async (
        keys: string[],
        flags: {
          all?: boolean;
          stale?: boolean;
          format?: string;
          profile?: string;
          source?: string;
          dryRun?: boolean;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        const bad = keys.filter((k) => !/^[0-9a-f]{4,64}$/i.test(k));
        if (bad.length)
          throw new UsageError(`keys are hex prefixes of at least 4 characters (see pregen ls): ${bad.join(', ')}`);
        if (!keys.length && !flags.all && !flags.stale && !flags.format && !flags.profile && !flags.source) {
          throw new UsageError('say what to remove: key prefixes, --stale, --format, --profile, --source, or --all');
        }
        const format = choiceFlag('format', flags.format, FORMATS);
        const profile = choiceFlag('profile', flags.profile, PROFILES);
        const cfg = configFor(cmd);
        const { withDb } = await import('./common.js');
        const { listCache, removeFromCache, cacheTable } = await import('../pregen/cache-admin.js');
        const { openArtifactStore } = await import('../storage/open-artifact-store.js');
        const { rendererVersion } = await import('../render/renderer-version.js');
        const version = await rendererVersion();
        await withDb(cfg, async (db) => {
          const filter = {
            keyPrefixes: keys,
            format,
            profile,
            source: flags.source,
            staleAgainst: flags.stale ? version : undefined,
          };
          if (flags.dryRun) {
            const entries = await listCache(db, filter, version);
            if (flags.json) printJson({ dryRun: true, entries });
            else
              process.stdout.write(
                `${entries.length ? cacheTable(entries) : ''}dry run: ${entries.length} entries would be removed\n`,
              );
            return;
          }
          const removed = await removeFromCache(db, await openArtifactStore(cfg), filter);
          if (flags.json) printJson({ removed: removed.map((e) => e.key) });
          else process.stdout.write(`removed ${removed.length} entr${removed.length === 1 ? 'y' : 'ies'}\n`);
        });
      },
    );
}

async function runCommand(flags: RunFlags, cmd: Command): Promise<number> {
  const { CATEGORIES } = await import('../model/part.js');
  const { parseSizes } = await import('../pregen/plan.js');
  // --gl is validated by config, with the other settings
  const cfg = configFor(cmd);
  const concurrency = intFlag('concurrency', flags.concurrency, 1, 32) ?? 1;
  const limit = intFlag('limit', flags.limit, 1, 10_000_000);
  if (flags.thumbnails && (flags.builds || flags.matrix || flags.from))
    throw new UsageError('--thumbnails renders parts: leave out --builds, --matrix and --from');
  if (!flags.thumbnails && (flags.category || flags.force))
    throw new UsageError('--category and --force go with --thumbnails');
  if (flags.thumbnails && flags.farm)
    throw new UsageError('--thumbnails renders here; on the farm, `catalog import` queues them for the workers');
  const builds =
    flags.builds === undefined ? undefined : flags.builds.trim() === 'all' ? ('all' as const) : list(flags.builds);
  const categories = flags.category ? choiceListFlag('category', flags.category, CATEGORIES) : undefined;
  const base = parseRenderOptionFlags(flags);

  const abort = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals++;
    // the first Ctrl-C finishes cleanly (browsers closed, temp files gone); a second one insists
    if (signals > 1) process.exit(130);
    abort.abort(new ExitError(130, 'pregen interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const write = (t: string) => void process.stdout.write(t);
  try {
    const { pregenCommand } = await import('../pregen/command.js');
    // bad input throws PregenInputError (exit 2), a missing tool MissingToolError (exit 1)
    return await pregenCommand({
      cfg,
      inputs: { builds, matrix: flags.matrix, from: flags.from, limit },
      thumbnails: flags.thumbnails ? { categories, force: flags.force } : undefined,
      variants: {
        base,
        formats: choiceListFlag('formats', flags.formats ?? 'video', FORMATS),
        profiles: choiceListFlag('profiles', flags.profiles ?? 'cinematic', PROFILES),
        sizes: parseSizes(flags.sizes),
        stale: flags.stale,
      },
      concurrency,
      farm: flags.farm ?? false,
      dryRun: flags.dryRun ?? false,
      output: flags.json ? 'json' : process.stdout.isTTY && !flags.plain ? 'ink' : 'plain',
      write,
      signal: abort.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
