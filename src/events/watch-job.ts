/**
 * Following one job from outside the API process, for `render-farm jobs watch`: straight from
 * the database (operators: LISTEN/NOTIFY, like serve does), or through a running API's SSE
 * endpoint (anyone with a token), reconnecting with Last-Event-ID when the stream drops.
 */
import type { Config } from '../config.js';
import { baseUrl } from '../config.js';
import { NotFoundError, UnavailableError } from '../errors.js';
import type { JobEvent } from './follow-job.js';

/** The API cannot be followed (unreachable, refusing, the stream keeps dropping): exit 1. */
export class WatchError extends UnavailableError {
  constructor(message: string) {
    super('watch_failed', message);
    this.name = 'WatchError';
  }
}

/** Follows the job in the database; resolves with the final event (completed or error). */
export async function watchJobInDb(
  cfg: Config,
  jobId: string,
  onEvent: (e: JobEvent) => void,
  signal?: AbortSignal,
): Promise<JobEvent | null> {
  const { openDatabase } = await import('../db/database.js');
  const { getJob } = await import('../jobs/jobs-repository.js');
  const { resolveJobId } = await import('../jobs/job-id-prefix.js');
  const { jobView } = await import('../jobs/job-view.js');
  const { openArtifactStore } = await import('../storage/open-artifact-store.js');
  const { RenderEventHub } = await import('./render-event-hub.js');
  const { followJob } = await import('./follow-job.js');
  const db = await openDatabase(cfg);
  const hub = new RenderEventHub(db.connectionString);
  try {
    // a full ID or a unique prefix of one (as top shows them)
    const id = await resolveJobId(db, jobId);
    const job = id ? await getJob(db, id) : null;
    if (!job) {
      const { expiredJobError } = await import('../jobs/expired-jobs.js');
      const expired = /^[0-9a-f-]{36}$/i.test(jobId) ? await expiredJobError(db, jobId) : null;
      throw expired ?? new NotFoundError('job_not_found', `no job ${jobId} (see "render-farm jobs list")`);
    }
    const store = await openArtifactStore(cfg);
    const base = baseUrl(cfg);
    let final: JobEvent | null = null;
    await followJob(db, hub, job, {
      signal,
      emit: (e) => {
        if (e.event === 'completed' || e.event === 'error') final = e;
        onEvent(e);
      },
      view: (j) =>
        jobView(j.jobId, j.render, (key) => store.url(key, base), { shareCode: j.shareCode, createdAt: j.createdAt }),
    });
    return final;
  } finally {
    await hub.close();
    await db.close();
  }
}

/** Follows the job through `GET {apiUrl}/render-build/{jobId}/events`. */
export async function watchJobOverApi(
  apiUrl: string,
  token: string,
  jobId: string,
  onEvent: (e: JobEvent) => void,
  signal?: AbortSignal,
): Promise<JobEvent | null> {
  const { readSse } = await import('./sse-client.js');
  const url = `${apiUrl.replace(/\/+$/, '')}/render-build/${encodeURIComponent(jobId)}/events`;
  let lastId: string | undefined;
  let final: JobEvent | null = null;
  for (let drops = 0; ; ) {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
        signal,
      });
    } catch (err) {
      if (signal?.aborted) return final;
      if (++drops > 5) throw new WatchError(`cannot reach ${apiUrl}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 1_000 * drops));
      continue;
    }
    if (res.status === 204) return final;
    if (!res.ok || !res.body) {
      const body = (await res.json().catch(() => ({}))) as { message?: string };
      throw new WatchError(`the API refused (${res.status}): ${body.message ?? 'no message'}`);
    }
    try {
      for await (const item of readSse(res.body)) {
        if (item.type !== 'event') continue;
        lastId = item.id ?? lastId;
        const e: JobEvent = {
          id: Number(item.id ?? 0),
          event: item.event as JobEvent['event'],
          data: JSON.parse(item.data),
        };
        drops = 0;
        onEvent(e);
        if (e.event === 'completed' || e.event === 'error') return (final = e);
      }
    } catch (err) {
      if (signal?.aborted) return final;
      if (!(err instanceof TypeError) && !(err as Error).message.includes('terminated')) throw err;
    }
    if (signal?.aborted) return final;
    // the stream ended before the job did (a restart, a proxy time-out): resume
    if (++drops > 5)
      throw new WatchError('the event stream kept dropping; try again or poll GET /render-build/{jobId}');
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
