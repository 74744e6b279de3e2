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
import { LoadingNote } from './loading-note.js';
import { PerMinuteChart } from './per-minute-chart.js';
import { Table } from './table.js';
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
            <Card
              label="Failures, last hour"
              value={String(data.failures.hour)}
              warn={data.failures.hour > 0}
              name="failures-hour"
            />
            <Card
              label="Failures, last day"
              value={String(data.failures.day)}
              warn={data.failures.day > 0}
              name="failures-day"
            />
            <Card
              label="Store"
              value={formatBytes(data.store.bytes)}
              sub={`${data.store.renders} renders`}
              name="store"
            />
            <Card
              label="Workers"
              value={String(data.workers.filter((w) => w.state !== 'gone').length)}
              sub={`${data.workers.filter((w) => w.state === 'busy').length} busy`}
              name="workers"
            />
          </div>
          <h3>Workers</h3>
          <Table
            class="workers"
            head={['host', 'GL backend', 'state', 'job', 'chunk', 'frames/s', 'last heartbeat']}
            empty={
              data.workers.length === 0
                ? 'No worker has reported. Start one with `render-farm worker` (or `up`).'
                : null
            }
          >
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
          </Table>
          <div class="two-col">
            <div>
              <h3>Queues</h3>
              <Table class="queues" head={['kind', 'waiting', 'running']}>
                {data.queues.map((q) => (
                  <tr key={q.kind} data-kind={q.kind}>
                    <td>{q.kind}</td>
                    <td>{q.waiting}</td>
                    <td>{q.running}</td>
                  </tr>
                ))}
              </Table>
            </div>
            <div>
              <h3>Renders per minute</h3>
              <PerMinuteChart points={data.perMinute} />
            </div>
          </div>
        </>
      ) : (
        <LoadingNote error={error} />
      )}
    </section>
  );
}

function Card({
  label,
  value,
  sub,
  warn,
  name,
}: {
  label: string;
  value: string;
  sub?: string;
  warn?: boolean;
  name: string;
}) {
  return (
    <div class={`card${warn ? ' warn' : ''}`} data-card={name}>
      <div class="card-label">{label}</div>
      <div class="card-value">{value}</div>
      {sub ? <div class="card-sub">{sub}</div> : null}
    </div>
  );
}
