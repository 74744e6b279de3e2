/** `render-farm jobs list|show|retry|cancel`: what operators need to see and fix renders. */
import type { Command } from 'commander';
import { ExitError, UsageError } from './errors.js';
import { configFor, intFlag, printJson, withDb } from './common.js';

const STATUSES = ['queued', 'processing', 'completed', 'error'];
const KINDS = ['renders', 'thumbnails'];

/** `jobs list --kind thumbnails`: the backlog counts in parts, then one row per part (running, waiting, failed) with its batch job. */
async function listThumbnails(cfg: ReturnType<typeof configFor>, limit: number, json: boolean): Promise<void> {
  const { listThumbnailJobs } = await import('../jobs/thumbnail-jobs.js');
  const { THUMBNAIL_BATCH_SIZE } = await import('../jobs/queue/task-map.js');
  const { queueCounts } = await import('../jobs/queue/counts.js');
  const [list, counts] = await withDb(cfg, async (db) => Promise.all([listThumbnailJobs(db, { limit }), queueCounts(db.db)]));
  const c = counts.by_kind.thumbnail;
  if (json) return printJson({ counts: c, jobs: list });
  process.stdout.write(`thumbnails: ${c.queued} queued, ${c.processing} processing, ${c.failed ?? 0} failed (parts; a job renders a batch of up to ${THUMBNAIL_BATCH_SIZE})\n`);
  if (!list.length) return;
  const { table } = await import('./table.js');
  const rows = list.map((j) => [j.partId, j.state, j.category ?? '-', j.part ?? '(part gone)', `${j.jobId} (${j.batch})`, `${j.attempts}/${j.maxAttempts}`, j.lastError ?? '']);
  process.stdout.write(table(['PART', 'STATE', 'CATEGORY', 'NAME', 'JOB (PARTS)', 'ATTEMPTS', 'LAST ERROR'], rows));
}

export default function register(program: Command): void {
  const jobs = program
    .command('jobs')
    .description('Inspect, retry and cancel render jobs.')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm jobs list --status error
  $ render-farm jobs watch 3fa85f64-5717-4562-b3fc-2c963f66afa6
  $ render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6
  $ render-farm jobs cancel 3fa85f64-5717-4562-b3fc-2c963f66afa6`,
    );

  jobs
    .command('list')
    .description('Newest jobs first, with the worker that rendered each (or is rendering it).')
    .option('--kind <kind>', `renders (default) or thumbnails (part thumbnails queued by catalog import)`)
    .option('--status <status>', `only ${STATUSES.join(', ')} (renders)`)
    .option('--search <text>', 'only jobs whose id starts with text (e.g. 3fa85f64, as lists shorten ids) or whose share code is text (any case)')
    .option('--limit <n>', 'how many (default 50)')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm jobs list --status error\n  $ render-farm jobs list --search 3fa85f64\n  $ render-farm jobs list --search DEMO-GLASS --status completed\n  $ render-farm jobs list --json --limit 200\n  $ render-farm jobs list --kind thumbnails',
    )
    .action(async (opts: { kind?: string; status?: string; search?: string; limit?: string; json?: boolean }, cmd: Command) => {
      const kind = opts.kind ?? 'renders';
      if (!KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${KINDS.join(', ')}`);
      if (opts.status && !STATUSES.includes(opts.status)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      if (opts.status && kind === 'thumbnails') throw new UsageError('--status applies to renders only; thumbnails show their state in the list');
      if (opts.search !== undefined && kind === 'thumbnails') throw new UsageError('--search applies to renders only');
      const { MAX_SEARCH_LENGTH } = await import('../jobs/job-search.js');
      if (opts.search !== undefined && (!opts.search.trim() || opts.search.length > MAX_SEARCH_LENGTH)) {
        throw new UsageError(`--search takes the start of a job id or a share code (1 to ${MAX_SEARCH_LENGTH} characters)`);
      }
      const limit = intFlag('limit', opts.limit, 1, 10_000);
      if (kind === 'thumbnails') return listThumbnails(configFor(cmd), limit ?? 50, opts.json === true);
      const { listJobs } = await import('../jobs/jobs-repository.js');
      const list = await withDb(configFor(cmd), (db) => listJobs(db, { status: opts.status, search: opts.search, limit }));
      if (opts.json) return printJson(list);
      if (!list.length) return void process.stdout.write(opts.search !== undefined ? `no jobs match "${opts.search.trim()}"\n` : 'no jobs\n');
      const { table } = await import('./table.js');
      const rows = list.map((j) => {
        const r = j.render;
        const pct = r.status === 'processing' ? ` ${Math.round(Number(r.progress) * 100)}%` : '';
        // "gone": a processing job whose worker stopped heartbeating (freed by the sweeper, or by jobs retry)
        const gone = j.worker && !j.worker.alive && r.status === 'processing' ? ' gone' : '';
        // a split render belongs to its chunks' workers (jobs show lists them)
        const chunks = r.chunk_total ? `${r.chunks_done ?? 0}/${r.chunk_total} chunks` : null;
        const worker = j.worker ? `${j.worker.id} (${j.worker.hostname})${gone}` : (chunks ?? '-');
        return [j.jobId, `${r.status}${pct}`, r.format, j.customer, new Date(j.createdAt).toISOString(), worker, r.error ?? ''];
      });
      process.stdout.write(table(['JOB', 'STATUS', 'FORMAT', 'CUSTOMER', 'CREATED', 'WORKER', 'ERROR'], rows));
    });

  jobs
    .command('show <jobId>')
    .description('One job with its render: request, state, timings, artifacts, error; a split render lists its chunks (frames, state, worker, time, attempts).')
    .addHelpText('after', '\nExamples:\n  $ render-farm jobs show 3fa85f64-5717-4562-b3fc-2c963f66afa6')
    .action(async (jobId: string, _opts, cmd: Command) => {
      const { getJob, jobChunks } = await import('../jobs/jobs-repository.js');
      const found = await withDb(configFor(cmd), async (db) => {
        const job = /^[0-9a-f-]{36}$/i.test(jobId) ? await getJob(db, jobId) : null;
        return job ? { ...job, ...(job.render.chunk_total ? { chunks: await jobChunks(db, job.render.id) } : {}) } : null;
      });
      if (!found) throw new UsageError(`no job ${jobId}`);
      printJson(found);
    });

  jobs
    .command('watch <jobId>')
    .description('Follow one job until it ends: a progress bar on a terminal, a line per change otherwise. Exit 0 when completed, 1 on error.')
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
      const { watchJobInDb, watchJobOverApi } = await import('../events/watch-job.js');
      const { watchReporter } = await import('./job-watch-reporter.js');
      const reporter = await watchReporter(opts.json ? 'json' : process.stderr.isTTY ? 'tty' : 'plain', jobId);
      const abort = new AbortController();
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      try {
        const final = opts.apiUrl
          ? await watchJobOverApi(opts.apiUrl, opts.token!, jobId, (e) => reporter.event(e), abort.signal)
          : await watchJobInDb(configFor(cmd), jobId, (e) => reporter.event(e), abort.signal);
        if (abort.signal.aborted) throw new ExitError(130, 'interrupted');
        if (final?.event !== 'completed') throw new ExitError(1, final ? 'the job failed' : 'the stream ended before the job did');
      } finally {
        reporter.stop();
        process.removeListener('SIGINT', onSignal);
      }
    });

  jobs
    .command('retry <jobId>')
    .description('Queue a failed render again (--force: also a completed one); a render stuck on a worker that is gone is freed. Exit 1 saying why when there is nothing to retry.')
    .option('--force', 're-render even when it completed')
    .addHelpText('after', '\nExamples:\n  $ render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6')
    .action(async (jobId: string, opts: { force?: boolean }, cmd: Command) => {
      const { retryJob } = await import('../jobs/jobs-repository.js');
      const { installQueue } = await import('../jobs/queue/runner.js');
      const job = await withDb(configFor(cmd), async (db) => {
        await installQueue(db.pool);
        return /^[0-9a-f-]{36}$/i.test(jobId) ? retryJob(db, jobId, opts.force) : null;
      });
      if (!job) throw new UsageError(`no job ${jobId}`);
      process.stdout.write(`${job.jobId}: ${job.render.status}\n`);
    });

  jobs
    .command('cancel <jobId>')
    .description(
      'Cancel a queued or running render: it ends in error ("cancelled"), a queued one at once, a running one when its worker next reports progress (within seconds). Every job waiting on the same render ends with it. Exit 1 saying why when it has already ended.',
    )
    .addHelpText('after', '\nExamples:\n  $ render-farm jobs cancel 3fa85f64-5717-4562-b3fc-2c963f66afa6\n  $ render-farm jobs retry 3fa85f64-5717-4562-b3fc-2c963f66afa6   # render it after all')
    .action(async (jobId: string, _opts, cmd: Command) => {
      const { cancelJob } = await import('../jobs/jobs-repository.js');
      const job = await withDb(configFor(cmd), async (db) => (/^[0-9a-f-]{36}$/i.test(jobId) ? cancelJob(db, jobId) : null));
      if (!job) throw new UsageError(`no job ${jobId}`);
      process.stdout.write(`${job.jobId}: ${job.render.status} (cancelled)\n`);
    });
}
