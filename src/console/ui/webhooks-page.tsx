/** @jsxImportSource preact */
/** Webhooks (admin, read-only) and, for one of them, its delivery log. */
import type { DeliveryView, WebhookView } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { when } from './format.js';
import { href } from './hash-router.js';
import { Table } from './table.js';
import { useFetch } from './use-fetch.js';

/** The list; `id`: also that webhook's deliveries. */
export function WebhooksPage({ id }: { id?: string }) {
  const { data, error } = useFetch<WebhookView[]>('/webhooks');
  return (
    <section class="page webhooks">
      <h2>Webhooks</h2>
      <p class="muted">Read-only. Register and remove webhooks with `render-farm webhooks` or the API.</p>
      <ErrorNote error={error} />
      <Table head={['url', 'customer', 'events', 'state']} empty={data?.length === 0 ? 'No webhooks.' : null}>
        {data?.map((w) => (
          <tr key={w.id} class={w.id === id ? 'selected' : ''}>
            <td>
              <a href={href('webhooks', w.id)}>{w.url}</a>
            </td>
            <td>{w.customer}</td>
            <td>{w.events.join(', ')}</td>
            <td>{w.disabledAt ? `disabled ${when(w.disabledAt)}` : 'active'}</td>
          </tr>
        ))}
      </Table>
      {id ? <Deliveries id={id} /> : null}
    </section>
  );
}

function Deliveries({ id }: { id: string }) {
  const { data, error } = useFetch<DeliveryView[]>(`/webhooks/${encodeURIComponent(id)}/deliveries`);
  return (
    <>
      <h3>Deliveries</h3>
      <ErrorNote error={error} />
      <Table
        class="deliveries"
        head={['event', 'status', 'attempts', 'last attempt', 'response']}
        empty={data?.length === 0 ? 'No deliveries yet.' : null}
      >
        {data?.map((d) => (
          <tr key={d.id}>
            <td>{d.event}</td>
            <td>
              <span class={`badge delivery-${d.status}`}>{d.status}</span>
            </td>
            <td>{d.attempts}</td>
            <td>{when(d.lastAttemptAt)}</td>
            <td>{d.responseStatus ?? '-'}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}
