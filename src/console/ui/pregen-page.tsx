/** @jsxImportSource preact */
/**
 * The pregenerated cache: the entries as `render-farm pregen ls` lists them (every format,
 * profile and size; stale ones marked with why), and the saved builds' coverage per format and
 * profile at the default sizes, each variant with "fill" (queues its missing and stale renders
 * on the farm, as `pregen --builds all --farm --stale` does). Fill is offered to admin sessions
 * only, as the keys and webhooks pages are: a customer's key would be refused after confirming.
 */
import { useState } from 'preact/hooks';
import type { PregenCoverage, PregenView } from '../console-api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ErrorNote } from './error-note.js';
import { formatBytes, when } from './format.js';
import { apiCall } from './http.js';
import { Table } from './table.js';
import { useAction } from './use-action.js';
import { useFetch } from './use-fetch.js';

/** The pregen page; `admin`: the session may fill (the server refuses others with 403 admin_required). */
export function PregenPage({ admin }: { admin: boolean }) {
  const { data, error, reload } = useFetch<PregenView>('/pregen');
  const [asking, setAsking] = useState<PregenCoverage | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const filling = useAction();
  const entries = data?.entries ?? [];
  const count = (s: 'current' | 'stale') => entries.filter((e) => e.state === s).length;
  const fill = async (v: PregenCoverage) => {
    setAsking(null);
    await filling.run(async () => {
      const r = await apiCall<{ queued: number }>('POST', '/pregen/fill', { format: v.format, profile: v.profile });
      setNote(`${r.queued} pregen render${r.queued === 1 ? '' : 's'} queued (${v.format} ${v.profile}).`);
      reload();
    });
  };
  return (
    <section class="page pregen">
      <h2>Pregenerated cache</h2>
      <ErrorNote error={error} />
      {data ? (
        <p class="pregen-summary">
          <span class="badge status-completed" data-count="current">
            {count('current')} current
          </span>{' '}
          <span class="badge status-queued" data-count="stale">
            {count('stale')} stale
          </span>{' '}
          <span class="muted">
            {data.totals.entries} entr{data.totals.entries === 1 ? 'y' : 'ies'} in all ({formatBytes(data.totals.bytes)}
            ){entries.length < data.totals.entries ? `, the newest ${entries.length} listed` : ''}; renderer{' '}
            <code>{data.rendererVersion}</code>
          </span>
        </p>
      ) : null}
      {note ? <p class="note">{note}</p> : null}
      <ErrorNote error={filling.error} />
      <ConfirmDialog
        open={asking !== null}
        title="Fill the cache?"
        confirmLabel="Queue the renders"
        onConfirm={() => asking && fill(asking)}
        onCancel={() => setAsking(null)}
      >
        {asking ? (
          <p>
            Queues pregen renders on the farm for the {asking.missing} missing and {asking.stale} stale saved builds in{' '}
            {asking.format} {asking.size} {asking.profile} (as `render-farm pregen --builds all --farm --stale --formats{' '}
            {asking.format} --profiles {asking.profile}`).
          </p>
        ) : null}
      </ConfirmDialog>

      <h3>Saved builds</h3>
      <p class="muted">
        Every saved build in each format and profile at its default size.
        {admin ? null : (
          <span data-note="fill-admin-only">
            {' '}
            Filling the cache needs an admin key (`render-farm keys create --admin`).
          </span>
        )}
      </p>
      <Table
        class="pregen-coverage"
        head={['format', 'size', 'profile', 'current', 'stale', 'missing', ...(admin ? [''] : [])]}
      >
        {data?.coverage.map((c) => (
          <tr key={`${c.format}/${c.profile}`} data-variant={`${c.format}/${c.profile}`}>
            <td>{c.format}</td>
            <td>{c.size}</td>
            <td>{c.profile}</td>
            <td data-current={String(c.current)}>{c.current}</td>
            <td data-stale={String(c.stale)}>{c.stale}</td>
            <td data-missing={String(c.missing)}>{c.missing}</td>
            {admin ? (
              <td>
                <button
                  type="button"
                  data-action="fill"
                  disabled={c.missing + c.stale === 0}
                  onClick={() => setAsking(c)}
                >
                  Fill
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </Table>

      <h3>Entries</h3>
      <p class="muted">Newest first, as `render-farm pregen ls` lists them.</p>
      <Table
        class="pregen-table"
        head={['key', 'build', 'format', 'size', 'profile', 'bytes', 'state', 'created', '']}
        empty={
          data && entries.length === 0 ? 'The cache is empty. Fill a variant above, or run `render-farm pregen`.' : null
        }
      >
        {entries.map((e) => (
          <tr key={e.key} data-key={e.key} data-state={e.state}>
            <td>
              <code title={e.key}>{e.key.slice(0, 12)}</code>
            </td>
            <td>
              <code title={e.source}>{e.build}</code>
            </td>
            <td>{e.format}</td>
            <td>{e.size}</td>
            <td data-profile={e.profile}>{e.profile}</td>
            <td>{formatBytes(e.bytes)}</td>
            <td>
              <span class={`badge pregen-${e.state}`}>
                {e.state === 'stale' ? `stale (${e.staleReasons.join(', ')})` : 'current'}
              </span>
            </td>
            <td>{when(e.createdAt)}</td>
            <td>{e.url ? <a href={e.url}>file</a> : null}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
