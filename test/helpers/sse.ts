/** An SSE connection for tests: collects items in the background; wait on what should arrive. */
import { EventEmitter } from 'node:events';
import { readSse, type SseItem } from '../../src/events/sse-client.js';
import { waitFor } from './wait-for.js';

export interface SseConnection {
  status: number;
  headers: Headers;
  items: SseItem[];
  events(): { event: string; id?: string; data: any }[];
  /** resolves when the server ended the stream */
  ended: Promise<void>;
  waitFor(what: string, pred: (items: SseItem[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctrl.signal });
  const items: SseItem[] = [];
  let done = false;
  // fires on each item and at the end of the stream, so waits re-check at once
  const changed = new EventEmitter();
  const ended = (async () => {
    if (!res.body || res.status !== 200) return;
    try {
      for await (const item of readSse(res.body)) {
        items.push(item);
        changed.emit('change');
      }
    } catch {
      // aborted by close()
    }
  })().finally(() => {
    done = true;
    changed.emit('change');
  });
  return {
    status: res.status,
    headers: res.headers,
    items,
    events: () =>
      items.flatMap((i) => (i.type === 'event' ? [{ event: i.event, id: i.id, data: JSON.parse(i.data) }] : [])),
    ended,
    waitFor: async (what, pred, timeoutMs = 20_000) => {
      await waitFor(
        what,
        () => {
          if (pred(items)) return true;
          if (done) throw new Error(`stream ended before ${what}: ${JSON.stringify(items)}`);
          return false;
        },
        {
          timeoutMs,
          intervalMs: 25,
          wake: { emitter: changed, events: ['change'] },
          show: () => JSON.stringify(items),
        },
      );
    },
    close: () => ctrl.abort(),
  };
}
