/** @jsxImportSource preact */
/**
 * The jobs list: a search (job id prefix or share code) and filters (status, customer,
 * environment, format, kind) kept in the hash so a
 * filtered list can be linked, newest first, paged by cursor, with progress bars that move with
 * the live job events (no reload; a job the list has not seen reloads the first page).
 */
import { useState } from 'preact/hooks';
import {
  JOB_STATUSES,
  type FailedCount,
  type JobSummary,
  type JobsPage as JobsPageData,
  type RetryFailedResult,
} from '../console-api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ErrorNote } from './error-note.js';
import { ago, shortId, when } from './format.js';
import { href, navigate, type Route } from './hash-router.js';
import { apiCall } from './http.js';
import { useJobEvents } from './job-events.js';
import { ProgressBar } from './progress-bar.js';
import { Table } from './table.js';
import { useAction } from './use-action.js';
import { useFetch } from './use-fetch.js';

// q: the start of a job id or a share code (the server's listJobs search)
const FILTERS = ['q', 'status', 'customer', 'environment', 'format', 'kind'] as const;
const LABELS: Partial<Record<(typeof FILTERS)[number], string>> = { q: 'job ID or share code' };
const PAGE_SIZE = 25;

/** `route.query`: the filters and `before` (the page's cursor). */
export function JobsPage({ route }: { route: Route }) {
  const q = route.query;
  const params = new URLSearchParams();
  for (const f of [...FILTERS, 'before'] as const) {
    const v = q.get(f);
    if (v) params.set(f, v);
  }
  params.set('limit', String(PAGE_SIZE));
  const { data, error, reload } = useFetch<JobsPageData>(`/jobs?${params}`);
  const [live, setLive] = useState<Record<string, Partial<JobSummary>>>({});
  const firstPage = !q.get('before');
  useJobEvents((e) => {
    const known = data?.jobs.some((j) => j.id === e.id);
    if (known)
      setLive((l) => ({
        ...l,
        [e.id]: { status: e.status, progress: e.progress, ...(e.error !== undefined ? { error: e.error } : {}) },
      }));
    else if (firstPage) reload();
  });
  const filters = Object.fromEntries(FILTERS.map((f) => [f, q.get(f) ?? undefined]));
  const apply = (next: Record<string, string>) => {
    setLive({});
    navigate(href('jobs', next));
  };
  return (
    <section class="page jobs">
      <h2>Jobs</h2>
      <FilterForm key={q.toString()} initial={filters} onApply={apply} />
      <RetryFailed onDone={reload} />
      <ErrorNote error={error} />
      <Table
        class="jobs-table"
        head={['job', 'status', 'progress', 'format', 'build', 'size', 'kind', 'customer', 'env', 'created']}
        empty={data?.jobs.length === 0 ? 'No jobs match.' : null}
      >
        {data?.jobs.map((j0) => {
          const j = { ...j0, ...live[j0.id] };
          return (
            <tr key={j.id} data-job={j.id} data-status={j.status}>
              <td>
                <a href={href('jobs', j.id)} title={j.id}>
                  {shortId(j.id)}
                </a>
              </td>
              <td>
                <span class={`badge status-${j.status}`}>{j.status}</span>
              </td>
              <td>
                <ProgressBar value={j.progress} status={j.status} />
              </td>
              <td>{j.format}</td>
              <td data-col="build">{j.build}</td>
              <td data-col="size">{j.size ?? '-'}</td>
              <td>{j.kind}</td>
              <td>{j.customer}</td>
              <td>{j.environment}</td>
              <td data-col="created" title={ago(j.createdAt)}>
                {when(j.createdAt)}
              </td>
            </tr>
          );
        })}
      </Table>
      <nav class="pager">
        {!firstPage ? (
          <a href={href('jobs', filters)} class="button secondary">
            Newest
          </a>
        ) : null}
        {data?.next ? (
          <a href={href('jobs', { ...filters, before: data.next })} class="button secondary" data-action="older">
            Older
          </a>
        ) : null}
      </nav>
    </section>
  );
}

const CHOICES: Partial<Record<(typeof FILTERS)[number], string[]>> = {
  // a cancelled job ends in error (its message says it was cancelled)
  status: [...JOB_STATUSES],
  environment: ['prod', 'staging'],
  // the formats a job has (its still comes with every format: no job is a screenshot job)
  format: ['video', 'sprite'],
  // pregen: the pregenerated cache's own renders; render: everyone else's
  kind: ['render', 'pregen'],
};

/** The filter fields; their own state, so a live re-render of the list keeps what is being typed. */
function FilterForm({
  initial,
  onApply,
}: {
  initial: Record<string, string | undefined>;
  onApply: (f: Record<string, string>) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(FILTERS.map((f) => [f, initial[f] ?? ''])),
  );
  const set = (f: string) => (e: Event) =>
    setValues((v) => ({ ...v, [f]: (e.currentTarget as HTMLInputElement | HTMLSelectElement).value }));
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])));
      }}
    >
      {FILTERS.map((f) => {
        const choices = CHOICES[f];
        return (
          <label key={f}>
            {LABELS[f] ?? f}
            {choices ? (
              <select name={f} value={values[f]} onChange={set(f)}>
                <option value="">any</option>
                {choices.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            ) : (
              <input
                name={f}
                value={values[f]}
                onInput={set(f)}
                placeholder={f === 'q' ? '3fa85f64 or DEMO-GLASS' : 'any'}
              />
            )}
          </label>
        );
      })}
      <button type="submit">Filter</button>
    </form>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * "Retry all failed": asks the server how many failed renders the session's jobs have, asks for a
 * confirmation naming that count, then retries them (the code `render-farm jobs retry --failed` runs).
 */
function RetryFailed({ onDone }: { onDone: () => void }) {
  const [asking, setAsking] = useState<FailedCount | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [refused, setRefused] = useState<RetryFailedResult['refused']>([]);
  const { busy, error, run } = useAction();
  const ask = async () => {
    setNote(null);
    setRefused([]);
    await run(async () => {
      const count = await apiCall<FailedCount>('GET', '/jobs/retry-failed');
      if (count.renders === 0) setNote('No failed jobs to retry.');
      else setAsking(count);
    });
  };
  const retry = async () => {
    setAsking(null);
    await run(async () => {
      const r = await apiCall<RetryFailedResult>('POST', '/jobs/retry-failed');
      setNote(
        `Queued ${plural(r.retried.length, 'failed render')} again (${plural(r.jobs, 'job')}).` +
          (r.refused.length ? ` ${r.refused.length} not retried (below).` : '') +
          (r.remaining ? ` ${r.remaining} more failed: retry all failed again for them.` : ''),
      );
      setRefused(r.refused);
      onDone();
    });
  };
  return (
    <div class="bulk-actions">
      <button type="button" class="secondary" data-action="retry-failed" disabled={busy} onClick={ask}>
        Retry all failed
      </button>
      {note ? (
        <span class="note" data-note="retry-failed">
          {note}
        </span>
      ) : null}
      <ErrorNote error={error} />
      {refused.length ? (
        <ul class="refused">
          {refused.map((r) => (
            <li key={r.id}>
              <a href={href('jobs', r.id)}>{shortId(r.id)}</a>: {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        title="Retry all failed jobs?"
        confirmLabel="Retry them"
        onConfirm={retry}
        onCancel={() => setAsking(null)}
      >
        {asking ? (
          <p data-confirm="retry-failed">
            Queues {plural(asking.renders, 'failed render')} again ({plural(asking.jobs, 'job')} wait on them), each as
            a single retry does (`render-farm jobs retry --failed`). Cancelled and expired jobs are left alone.
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
