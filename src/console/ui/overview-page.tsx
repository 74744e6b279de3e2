/** @jsxImportSource preact */
/**
 * The farm at a glance (what `top` shows): workers with their heartbeats, queues by kind,
 * renders per minute over the last hour, failures, store size. Reloaded every few seconds and
 * on every job event.
 */
import { useEffect } from 'preact/hooks';
import type { Overview } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { ago, formatBytes, shortId } from './format.js';
import { href } from './hash-router.js';
import { useJobEvents } from './job-events.js';
import { PerMinuteChart } from './per-minute-chart.js';
import { useFetch } from './use-fetch.js';

/** Heartbeats arrive every few seconds: a refresh at this pace keeps "last seen" honest. */
const REFRESH_MS = 5000;

/** The overview page; `admin`: each worker links to its page (operators only: a worker's errors are every customer's). */
export function OverviewPage({ admin }: { admin: boolean }) {
  const { data, error, reload } = useFetch<Overview>('/overview');
  useEffect(() => {
    const t = setInterval(reload, REFRESH_MS);
    return () => clearInterval(t);
  }, [reload]);
  useJobEvents((e) => {
    if (e.status !== 'processing') reload(); // a job started or ended: counts changed
  });
  return (
    <section class="page overview">
      <h2>Overview</h2>
      <ErrorNote error={error} />
      {data ? (
        <>
          <div class="cards">
            <Card label="Failures, last hour" value={String(data.failures.hour)} warn={data.failures.hour > 0} name="failures-hour" />
            <Card label="Failures, last day" value={String(data.failures.day)} warn={data.failures.day > 0} name="failures-day" />
            <Card label="Store" value={formatBytes(data.store.bytes)} sub={`${data.store.renders} renders`} name="store" />
            <Card label="Workers" value={String(data.workers.filter((w) => w.state !== 'gone').length)} sub={`${data.workers.filter((w) => w.state === 'busy').length} busy`} name="workers" />
          </div>
          <h3>Workers</h3>
          <table class="workers">
            <thead>
              <tr>
                <th>host</th>
                <th>GL backend</th>
                <th>state</th>
                <th>job</th>
                <th>chunk</th>
                <th>frames/s</th>
                <th>last heartbeat</th>
              </tr>
            </thead>
            <tbody>
              {data.workers.length === 0 ? (
                <tr>
                  <td colSpan={7} class="muted">
                    No worker has reported. Start one with `render-farm worker` (or `up`).
                  </td>
                </tr>
              ) : null}
              {data.workers.map((w) => (
                <tr key={w.id} class={`worker worker-${w.state}`} data-worker={w.id} data-state={w.state}>
                  <td title={w.id}>{admin ? <a href={href('workers', w.id)}>{w.host}</a> : w.host}</td>
                  <td>{w.backend}</td>
                  <td>
                    <span class={`badge state-${w.state}`}>{w.state}</span>
                  </td>
                  <td>{w.job ? <a href={href('jobs', w.job)}>{shortId(w.job)}</a> : '-'}</td>
                  <td>{w.chunk ?? '-'}</td>
                  <td>{w.fps !== null ? w.fps.toFixed(1) : '-'}</td>
                  <td>{ago(w.lastSeen)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="two-col">
            <div>
              <h3>Queues</h3>
              <table class="queues">
                <thead>
                  <tr>
                    <th>kind</th>
                    <th>waiting</th>
                    <th>running</th>
                  </tr>
                </thead>
                <tbody>
                  {data.queues.map((q) => (
                    <tr key={q.kind} data-kind={q.kind}>
                      <td>{q.kind}</td>
                      <td>{q.waiting}</td>
                      <td>{q.running}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div>
              <h3>Renders per minute</h3>
              <PerMinuteChart points={data.perMinute} />
            </div>
          </div>
        </>
      ) : error ? null : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}

function Card({ label, value, sub, warn, name }: { label: string; value: string; sub?: string; warn?: boolean; name: string }) {
  return (
    <div class={`card${warn ? ' warn' : ''}`} data-card={name}>
      <div class="card-label">{label}</div>
      <div class="card-value">{value}</div>
      {sub ? <div class="card-sub">{sub}</div> : null}
    </div>
  );
}
