/** @jsxImportSource preact */
/** The pregenerated cache: entries by build, format and size; missing and stale ones first; "fill" queues pregen work for them. */
import { useState } from 'preact/hooks';
import type { PregenEntry } from '../console-api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ErrorNote } from './error-note.js';
import { apiCall } from './http.js';
import { useFetch } from './use-fetch.js';

const ORDER: Record<PregenEntry['status'], number> = { missing: 0, stale: 1, ok: 2 };

/** The pregen page. */
export function PregenPage() {
  const { data, error, reload } = useFetch<{ entries: PregenEntry[] }>('/pregen');
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [fillError, setFillError] = useState<Error | null>(null);
  const entries = [...(data?.entries ?? [])].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.build.localeCompare(b.build));
  const count = (s: PregenEntry['status']) => entries.filter((e) => e.status === s).length;
  const fill = async () => {
    setAsking(false);
    setFillError(null);
    try {
      const r = await apiCall<{ queued: number }>('POST', '/pregen/fill');
      setNote(`${r.queued} pregen render${r.queued === 1 ? '' : 's'} queued.`);
      reload();
    } catch (err) {
      setFillError(err as Error);
    }
  };
  return (
    <section class="page pregen">
      <h2>Pregenerated cache</h2>
      <ErrorNote error={error} />
      {data ? (
        <p>
          <span class="badge status-completed">{count('ok')} ok</span> <span class="badge status-queued">{count('stale')} stale</span>{' '}
          <span class="badge status-error">{count('missing')} missing</span>{' '}
          <button type="button" data-action="fill" disabled={count('missing') + count('stale') === 0} onClick={() => setAsking(true)}>
            Fill missing and stale
          </button>
        </p>
      ) : null}
      {note ? <p class="note">{note}</p> : null}
      <ErrorNote error={fillError} />
      <ConfirmDialog open={asking} title="Fill the cache?" confirmLabel="Queue the renders" onConfirm={fill} onCancel={() => setAsking(false)}>
        <p>Queues pregen renders on the farm for every missing and stale entry.</p>
      </ConfirmDialog>
      <table class="pregen-table">
        <thead>
          <tr>
            <th>build</th>
            <th>format</th>
            <th>size</th>
            <th>status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={`${e.build}/${e.format}/${e.size}`} data-status={e.status}>
              <td>
                <code>{e.build}</code>
              </td>
              <td>{e.format}</td>
              <td>{e.size}</td>
              <td>
                <span class={`badge pregen-${e.status}`}>{e.status}</span>
              </td>
              <td>{e.url ? <a href={e.url}>file</a> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
