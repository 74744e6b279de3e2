/** @jsxImportSource preact */
/** API keys (admin, read-only): who has which key, its scopes and when it was last used; never a secret. */
import type { KeyView } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { ago, when } from './format.js';
import { Table } from './table.js';
import { useFetch } from './use-fetch.js';

/** The keys page (the server answers 403 admin_required to others). */
export function KeysPage() {
  const { data, error } = useFetch<KeyView[]>('/keys');
  return (
    <section class="page keys">
      <h2>API keys</h2>
      <p class="muted">Read-only. Create and revoke keys with `render-farm keys`.</p>
      <ErrorNote error={error} />
      <Table head={['prefix', 'customer', 'scopes', 'created', 'last used', 'revoked']}>
        {data?.map((k) => (
          <tr key={k.id} class={k.revokedAt ? 'revoked' : ''}>
            <td>
              <code>{k.prefix}…</code> {k.admin ? <span class="badge">admin</span> : null}
            </td>
            <td>{k.customer}</td>
            <td>{k.scopes.join(', ')}</td>
            <td>{when(k.createdAt)}</td>
            <td>{ago(k.lastUsedAt)}</td>
            <td>{k.revokedAt ? when(k.revokedAt) : '-'}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
