/** @jsxImportSource preact */
/**
 * One worker (admin keys), as its heartbeats report it: host, versions, state, uptime, memory,
 * jobs done and failed, last error, what it renders now; and Drain behind a confirmation (the
 * code `render-farm workers drain` runs: the worker's next heartbeat reads the request, it stops
 * taking jobs, finishes the running ones and exits as on SIGTERM). Refreshed every few seconds,
 * so draining and then stopped show as they happen.
 */
import { useEffect, useState } from 'preact/hooks';
import type { WorkerDetailView } from '../console-api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ErrorNote } from './error-note.js';
import { ago, duration, formatBytes, shortId, when } from './format.js';
import { href } from './hash-router.js';
import { apiCall } from './http.js';
import { LoadingNote } from './loading-note.js';
import { useAction } from './use-action.js';
import { useFetch } from './use-fetch.js';

/** Heartbeats come every 5 s: the page follows at that pace. */
const REFRESH_MS = 3000;

/** The page of worker `id`. */
export function WorkerPage({ id }: { id: string }) {
  const { data: w, error, reload } = useFetch<WorkerDetailView>(`/workers/${encodeURIComponent(id)}`);
  const [asking, setAsking] = useState(false);
  const action = useAction();
  useEffect(() => {
    const t = setInterval(reload, REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);
  const drain = async () => {
    setAsking(false);
    await action.run(async () => {
      await apiCall('POST', `/workers/${encodeURIComponent(id)}/drain`);
      reload();
    });
  };
  return (
    <section class="page worker" data-worker={id} data-state={w?.state}>
      <p class="crumbs">
        <a href={href('overview')}>Overview</a> / worker <code>{id}</code>
      </p>
      <h2>Worker {w ? <span class={`badge worker-state-${w.state}`}>{w.state}</span> : null}</h2>
      <ErrorNote error={error} />
      {w ? (
        <>
          <div class="actions">
            {w.state === 'running' ? (
              <button type="button" class="danger" data-action="drain" onClick={() => setAsking(true)}>
                Drain
              </button>
            ) : null}
          </div>
          <ErrorNote error={action.error} />
          <ConfirmDialog
            open={asking}
            title="Drain this worker?"
            confirmLabel="Drain it"
            onConfirm={drain}
            onCancel={() => setAsking(false)}
          >
            <p>
              At its next heartbeat (within 5 s) the worker stops taking jobs, finishes the{' '}
              {w.running.length ? `${w.running.length} it renders` : 'jobs it runs'} and exits, as on SIGTERM
              (`render-farm workers drain`). Its process does not come back by itself.
            </p>
          </ConfirmDialog>
          <dl class="facts">
            <dt>host</dt>
            <dd data-fact="host">
              {w.host} · concurrency {w.concurrency} · {w.backend}
            </dd>
            <dt>version</dt>
            <dd data-fact="version">
              {w.version ?? '-'} <span class="muted">renderer {w.rendererVersion ?? '-'}</span>
            </dd>
            <dt>started</dt>
            <dd data-fact="started">{when(w.startedAt)}</dd>
            <dt>uptime</dt>
            <dd data-fact="uptime">{duration(w.uptimeS)}</dd>
            <dt>last heartbeat</dt>
            <dd data-fact="heartbeat" title={when(w.lastSeen)}>
              {ago(w.lastSeen)}
            </dd>
            <dt>memory</dt>
            <dd data-fact="memory">
              {w.memory ? `${formatBytes(w.memory.rss)} resident, ${formatBytes(w.memory.heap)} heap` : '-'}
            </dd>
            <dt>jobs</dt>
            <dd data-fact="jobs">
              {w.jobsDone} done, {w.jobsFailed} failed
            </dd>
            <dt>last error</dt>
            <dd data-fact="last-error" class={w.lastError ? 'error-note' : ''}>
              {w.lastError ? `${w.lastError} (${when(w.lastErrorAt)})` : '-'}
            </dd>
            {w.drainRequestedAt ? (
              <>
                <dt>drain asked</dt>
                <dd data-fact="drain">{when(w.drainRequestedAt)}</dd>
              </>
            ) : null}
            {w.stoppedAt ? (
              <>
                <dt>stopped</dt>
                <dd data-fact="stopped">{when(w.stoppedAt)}</dd>
              </>
            ) : null}
            <dt>rendering</dt>
            <dd data-fact="rendering">
              {w.running.length
                ? w.running.map((r, i) => (
                    <span key={i}>
                      {i ? ', ' : ''}
                      {r.job ? <a href={href('jobs', r.job)}>{shortId(r.job)}</a> : 'a render'}
                      {r.chunk !== null ? ` chunk ${r.chunk}` : ''}
                    </span>
                  ))
                : 'nothing'}
            </dd>
          </dl>
        </>
      ) : (
        <LoadingNote error={error} />
      )}
    </section>
  );
}
