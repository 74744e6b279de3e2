/** @jsxImportSource preact */
/** Webhooks (admin, read-only) and, for one of them, its delivery log. */
import type { DeliveryView, WebhookView } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { when } from './format.js';
import { href } from './hash-router.js';
import { useFetch } from './use-fetch.js';

/** The list; `id`: also that webhook's deliveries. */
export function WebhooksPage({ id }: { id?: string }) {
  const { data, error } = useFetch<WebhookView[]>('/webhooks');
  return (
    <section class="page webhooks">
      <h2>Webhooks</h2>
      <p class="muted">Read-only. Register and remove webhooks with `render-farm webhooks` or the API.</p>
      <ErrorNote error={error} />
      <table>
        <thead>
          <tr>
            <th>url</th>
            <th>customer</th>
            <th>events</th>
            <th>state</th>
          </tr>
        </thead>
        <tbody>
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
          {data?.length === 0 ? (
            <tr>
              <td colSpan={4} class="muted">
                No webhooks.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
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
      <table class="deliveries">
        <thead>
          <tr>
            <th>event</th>
            <th>status</th>
            <th>attempts</th>
            <th>last attempt</th>
            <th>response</th>
          </tr>
        </thead>
        <tbody>
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
          {data?.length === 0 ? (
            <tr>
              <td colSpan={5} class="muted">
                No deliveries yet.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </>
  );
}
