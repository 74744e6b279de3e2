/** An SSE connection for tests: collects items in the background; wait on what should arrive. */
import { readSse, type SseItem } from '../../src/events/sse-client.js';

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
  const ended = (async () => {
    if (!res.body || res.status !== 200) return;
    try {
      for await (const item of readSse(res.body)) items.push(item);
    } catch {
      // aborted by close()
    }
  })().finally(() => {
    done = true;
  });
  return {
    status: res.status,
    headers: res.headers,
    items,
    events: () =>
      items.flatMap((i) => (i.type === 'event' ? [{ event: i.event, id: i.id, data: JSON.parse(i.data) }] : [])),
    ended,
    waitFor: async (what, pred, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      while (!pred(items)) {
        if (done && !pred(items)) throw new Error(`stream ended before ${what}: ${JSON.stringify(items)}`);
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(items)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => ctrl.abort(),
  };
}
