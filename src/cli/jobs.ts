/** `render-farm jobs list|show|retry|cancel`: what operators need to see and fix renders. */
import type { Command } from 'commander';
import { ExitError, UsageError } from './errors.js';
import { baseUrl, type Config } from '../config.js';
import type { JobDetail } from '../top/job-detail.js';
import { choiceFlag, configFor, intFlag, printJson, subcommand, withExistingDb } from './common.js';
import type { JobUrls } from './job-summary.js';
import { isUuid } from '../model/uuid.js';
import { JOB_STATUSES } from '../model/job-status.js';

const KINDS = ['renders', 'thumbnails'] as const;

/** `jobs list --kind thumbnails`: the backlog counts in parts, then one row per part (running, waiting, failed) with its batch job. */
async function listThumbnails(cfg: ReturnType<typeof configFor>, limit: number, json: boolean): Promise<void> {
  const { listThumbnailJobs } = await import('../jobs/thumbnail-jobs.js');
  const { THUMBNAIL_BATCH_SIZE } = await import('../jobs/queue/task-map.js');
  const { queueCounts } = await import('../jobs/queue/counts.js');
  const [list, counts] = await withExistingDb(cfg, async (db) =>
    Promise.all([listThumbnailJobs(db, { limit }), queueCounts(db.db)]),
  );
  const c = counts.by_kind.thumbnail;
  if (json) return printJson({ counts: c, jobs: list });
  process.stdout.write(
    `thumbnails: ${c.queued} queued, ${c.processing} processing, ${c.failed ?? 0} failed (parts; a job renders a batch of up to ${THUMBNAIL_BATCH_SIZE})\n`,
  );
  if (!list.length) return;
  const { table } = await import('./table.js');
  const rows = list.map((j) => [
    j.partId,
    j.state,
    j.category ?? '-',
    j.part ?? '(part gone)',
    `${j.jobId} (${j.batch})`,
    `${j.attempts}/${j.maxAttempts}`,
    j.lastError ?? '',
  ]);
  process.stdout.write(table(['PART', 'STATE', 'CATEGORY', 'NAME', 'JOB (PARTS)', 'ATTEMPTS', 'LAST ERROR'], rows));
}

/** A completed render's file URLs, as the API gives them (the artifact store decides how). */
async function resultUrls(cfg: Config, d: JobDetail): Promise<JobUrls> {
  if (d.status !== 'completed' || !Object.keys(d.artifacts).length) return {};
  const { openArtifactStore } = await import('../storage/open-artifact-store.js');
  const store = await openArtifactStore(cfg);
  const base = baseUrl(cfg);
  const urls: JobUrls = {};
  for (const kind of ['video', 'sprite', 'screenshot'] as const) {
    const key = d.artifacts[kind];
    if (key) urls[kind] = await store.url(key, base);
  }
  return urls;
}

/** `jobs retry --failed`: counts, asks (or takes --yes), retries each failed render once; exit 1 when some were refused. */
async function retryAllFailed(
  cfg: ReturnType<typeof configFor>,
  opts: { force?: boolean; yes?: boolean; dryRun?: boolean; json?: boolean },
): Promise<void> {
  if (opts.force) throw new UsageError('--failed retries failed renders; --force (completed ones) goes with a job id');
  const { failedRenders, retryFailed } = await import('../jobs/retry-failed.js');
  const { installQueue } = await import('../jobs/queue/runner.js');
  const { askYesNo, canAsk } = await import('./ask.js');
  const result = await withExistingDb(cfg, async (db) => {
    const found = await failedRenders(db, {});
    const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
    const what = `${plural(found.total.renders, 'failed render')} (${plural(found.total.jobs, 'job')})`;
    if (opts.dryRun) return { dryRun: true as const, ...found };
    if (found.total.renders === 0) return { retried: [], refused: [], remaining: 0 };
    if (!opts.yes) {
      if (!canAsk() || opts.json)
        throw new UsageError(`${what} would be retried: pass --yes to retry them (--dry-run lists them)`);
      if (!(await askYesNo(`Retry ${what}?`))) throw new ExitError(1, 'nothing retried');
    }
    await installQueue(db.pool);
    return retryFailed(db, {});
  });
  if ('dryRun' in result) {
    if (opts.json) return printJson(result);
    for (const f of result.renders)
      process.stdout.write(`${f.jobId}  ${f.jobs} job${f.jobs === 1 ? '' : 's'}  ${f.error ?? ''}\n`);
    process.stdout.write(
      `dry run: ${result.total.renders} failed renders (${result.total.jobs} jobs) would be retried\n`,
    );
    return;
  }
  if (opts.json) printJson(result);
  else if (!result.retried.length && !result.refused.length) process.stdout.write('no failed renders to retry\n');
  else {
    for (const f of result.retried) process.stdout.write(`${f.jobId}: queued\n`);
    for (const f of result.refused) process.stderr.write(`render-farm: ${f.jobId}: not retried: ${f.reason}\n`);
    const jobs = result.retried.reduce((n, f) => n + f.jobs, 0);
    process.stdout.write(
      `retried ${result.retried.length} failed render${result.retried.length === 1 ? '' : 's'} (${jobs} job${jobs === 1 ? '' : 's'})${result.remaining ? `; ${result.remaining} more: run it again` : ''}\n`,
    );
  }
  if (result.refused.length) throw new ExitError(1, `${result.refused.length} not retried (see above)`);
}

export default function register(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('Inspect, retry and cancel render jobs.')
    .addHelpText(
      'after',
      `
A job is named by its ID or by a unique prefix of it (6+ hex digits, as top shows it: 3fa85f64);
a prefix several jobs share is refused (exit 2) with the jobs it matches.

Examples:
  $ render-farm jobs list --status error
  $ render-farm jobs show 3fa85f64
  $ render-farm jobs watch 3fa85f64-5717-4562-b3fc-2c963f66afa6
  $ render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6
  $ render-farm jobs cancel 3fa85f64-5717-4562-b3fc-2c963f66afa6`,
    );

  jobs
    .command('list')
    .description('Newest jobs first, with the worker that rendered each (or is rendering it).')
    .option('--kind <kind>', `renders (default) or thumbnails (part thumbnails queued by catalog import)`)
    .option('--status <status>', `only ${JOB_STATUSES.join(', ')} (renders)`)
    .option(
      '--search <text>',
      'only jobs whose id starts with text (e.g. 3fa85f64, as lists shorten ids) or whose share code is text (any case)',
    )
    .option('--limit <n>', 'how many (default 50)')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm jobs list --status error\n  $ render-farm jobs list --search 3fa85f64\n  $ render-farm jobs list --search DEMO-GLASS --status completed\n  $ render-farm jobs list --json --limit 200\n  $ render-farm jobs list --kind thumbnails',
    )
    .action(
      async (
        opts: { kind?: string; status?: string; search?: string; limit?: string; json?: boolean },
        cmd: Command,
      ) => {
        const kind = choiceFlag('kind', opts.kind, KINDS) ?? 'renders';
        choiceFlag('status', opts.status, JOB_STATUSES);
        if (opts.status && kind === 'thumbnails')
          throw new UsageError('--status applies to renders only; thumbnails show their state in the list');
        if (opts.search !== undefined && kind === 'thumbnails')
          throw new UsageError('--search applies to renders only');
        const { MAX_SEARCH_LENGTH } = await import('../jobs/job-search.js');
        if (opts.search !== undefined && (!opts.search.trim() || opts.search.length > MAX_SEARCH_LENGTH)) {
          throw new UsageError(
            `--search takes the start of a job id or a share code (1 to ${MAX_SEARCH_LENGTH} characters)`,
          );
        }
        const limit = intFlag('limit', opts.limit, 1, 10_000);
        if (kind === 'thumbnails') return listThumbnails(configFor(cmd), limit ?? 50, opts.json === true);
        const { listJobs } = await import('../jobs/jobs-repository.js');
        const list = await withExistingDb(configFor(cmd), (db) =>
          listJobs(db, { status: opts.status, search: opts.search, limit }),
        );
        if (opts.json) return printJson(list);
        if (!list.length)
          return void process.stdout.write(
            opts.search !== undefined ? `no jobs match "${opts.search.trim()}"\n` : 'no jobs\n',
          );
        const { table } = await import('./table.js');
        const rows = list.map((j) => {
          const r = j.render;
          const pct = r.status === 'processing' ? ` ${Math.round(Number(r.progress) * 100)}%` : '';
          // "gone": a processing job whose worker stopped heartbeating (freed by the sweeper, or by jobs retry)
          const gone = j.worker && !j.worker.alive && r.status === 'processing' ? ' gone' : '';
          // a split render belongs to its chunks' workers (jobs show lists them)
          const chunks = r.chunk_total ? `${r.chunks_done ?? 0}/${r.chunk_total} chunks` : null;
          const worker = j.worker ? `${j.worker.id} (${j.worker.hostname})${gone}` : (chunks ?? '-');
          return [
            j.jobId,
            `${r.status}${pct}`,
            r.format,
            j.customer,
            new Date(j.createdAt).toISOString(),
            worker,
            r.error ?? '',
          ];
        });
        process.stdout.write(table(['JOB', 'STATUS', 'FORMAT', 'CUSTOMER', 'CREATED', 'WORKER', 'ERROR'], rows));
      },
    );

  jobs
    .command('show <jobId>')
    .description(
      'One job: state, build, format/size/profile, customer, worker, times (ISO UTC), result URLs, error; a split render lists its chunks (frames, state, worker, time, attempts). --json: the whole record.',
    )
    .option('--json', 'the whole record (request, render row, chunks) as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm jobs show 3fa85f64-5717-4562-b3fc-2c963f66afa6\n  $ render-farm jobs show 3fa85f64            # a unique prefix, as top shows it\n  $ render-farm jobs show 3fa85f64 --json | jq .render.request',
    )
    .action(async (jobId: string, opts: { json?: boolean }, cmd: Command) => {
      const { getJob, jobChunks } = await import('../jobs/jobs-repository.js');
      const { resolveJobId } = await import('../jobs/job-id-prefix.js');
      const cfg = configFor(cmd);
      const found = await withExistingDb(cfg, async (db) => {
        const id = await resolveJobId(db, jobId);
        if (!id) return null;
        if (opts.json) {
          const job = await getJob(db, id);
          return (
            job && {
              json: { ...job, ...(job.render.chunk_total ? { chunks: await jobChunks(db, job.render.id) } : {}) },
            }
          );
        }
        const { jobDetail } = await import('../top/job-detail.js');
        const detail = await jobDetail(db, id);
        // the chunks of the render's current split: none for a render done in one piece
        return detail && { detail, chunks: await jobChunks(db, detail.renderId), urls: await resultUrls(cfg, detail) };
      });
      if (!found) throw new UsageError(`no job ${jobId}`);
      if ('json' in found) return printJson(found.json);
      const { formatJobSummary } = await import('./job-summary.js');
      process.stdout.write(formatJobSummary(found.detail, found.chunks, found.urls));
    });

  jobs
    .command('watch <jobId>')
    .description(
      'Follow one job until it ends: a progress bar on a terminal, a line per change otherwise. Exit 0 when completed, 1 on error.',
    )
    .option('--api-url <url>', 'follow through a running API (its SSE endpoint) instead of the database')
    .option('--token <token>', 'session token or API key for --api-url (render:status scope)')
    .option('--json', 'one JSON line per event (status, progress, completed, error)')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm jobs watch 3fa85f64-5717-4562-b3fc-2c963f66afa6
  $ render-farm jobs watch 3fa85f64-… --api-url https://render.example --token "$TOKEN" --json`,
    )
    .action(async (jobId: string, opts: { apiUrl?: string; token?: string; json?: boolean }, cmd: Command) => {
      if (opts.apiUrl && !opts.token) throw new UsageError('--api-url needs --token');
      // a shortened ID (top shows 8 digits) is looked up in the database (watchJobInDb); an API takes full IDs only
      if (opts.apiUrl && !isUuid(jobId))
        throw new UsageError(
          `--api-url takes the full job ID, got "${jobId}" (render-farm jobs show ${jobId} prints it)`,
        );
      const cfg = configFor(cmd);
      if (!opts.apiUrl) await (await import('../db/existing-data-dir.js')).requireExistingDataDir(cfg);
      const { watchJobInDb, watchJobOverApi } = await import('../events/watch-job.js');
      const { watchReporter } = await import('./job-watch-reporter.js');
      const reporter = await watchReporter(opts.json ? 'json' : process.stderr.isTTY ? 'tty' : 'plain', jobId);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      try {
        const final = opts.apiUrl
          ? await watchJobOverApi(opts.apiUrl, opts.token!, jobId, (e) => reporter.event(e), abort.signal)
          : await watchJobInDb(cfg, jobId, (e) => reporter.event(e), abort.signal);
        if (abort.signal.aborted) throw new ExitError(130, 'interrupted');
        if (final?.event !== 'completed')
          throw new ExitError(1, final ? 'the job failed' : 'the stream ended before the job did');
      } finally {
        reporter.stop();
        process.removeListener('SIGINT', onSignal);
      }
    });

  jobs
    .command('retry [jobId]')
    .description(
      'Queue a failed render again (--force: also a completed one); a render stuck on a worker that is gone is freed. Exit 1 saying why when there is nothing to retry. ' +
        '--failed: every failed render at once (not cancelled or expired ones), after a confirmation.',
    )
    .option('--force', 're-render even when it completed')
    .option(
      '--failed',
      'retry every failed render (each once, as a single retry; cancelled and expired renders are left alone)',
    )
    .option('--yes', 'with --failed: do not ask (needed when not on a terminal)')
    .option('--dry-run', 'with --failed: list what would be retried')
    .option('--json', 'with --failed: machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6\n  $ render-farm jobs retry --failed --dry-run\n  $ render-farm jobs retry --failed --yes',
    )
    .action(
      async (
        jobId: string | undefined,
        opts: { force?: boolean; failed?: boolean; yes?: boolean; dryRun?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        if (opts.failed && jobId) throw new UsageError('give a job id or --failed, not both');
        if (opts.failed) return retryAllFailed(configFor(cmd), opts);
        if (!jobId)
          throw new UsageError('say which job to retry (jobs retry <jobId>), or --failed for every failed one');
        if (opts.yes || opts.dryRun || opts.json) throw new UsageError('--yes, --dry-run and --json go with --failed');
        const { retryJob } = await import('../jobs/jobs-repository.js');
        const { installQueue } = await import('../jobs/queue/runner.js');
        const { resolveJobId } = await import('../jobs/job-id-prefix.js');
        const job = await withExistingDb(configFor(cmd), async (db) => {
          const id = await resolveJobId(db, jobId);
          if (!id) return null;
          await installQueue(db.pool);
          return retryJob(db, id, opts.force);
        });
        if (!job) throw new UsageError(`no job ${jobId}`);
        process.stdout.write(`${job.jobId}: ${job.render.status}\n`);
      },
    );

  subcommand(jobs, 'cancel <jobId>', {
    description:
      'Cancel a queued or running render: it ends in error ("cancelled"), a queued one at once, a running one when its worker next reports progress (within seconds). Every job waiting on the same render ends with it. Exit 1 saying why when it has already ended.',
    examples: [
      'render-farm jobs cancel 3fa85f64-5717-4562-b3fc-2c963f66afa6',
      'render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6   # render it after all',
    ],
  }).action(async (jobId: string, _opts, cmd: Command) => {
    const { cancelJob } = await import('../jobs/jobs-repository.js');
    const { resolveJobId } = await import('../jobs/job-id-prefix.js');
    const job = await withExistingDb(configFor(cmd), async (db) => {
      const id = await resolveJobId(db, jobId);
      return id ? cancelJob(db, id) : null;
    });
    if (!job) throw new UsageError(`no job ${jobId}`);
    process.stdout.write(`${job.jobId}: ${job.render.status} (cancelled)\n`);
  });
}
