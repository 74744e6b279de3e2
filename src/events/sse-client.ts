/**
 * A minimal text/event-stream reader (the WHATWG parsing rules for id, event, data and
 * comments), for `render-farm jobs watch --api-url` and tests. Node has no EventSource.
 */
export type SseItem = { type: 'event'; event: string; data: string; id?: string } | { type: 'comment'; text: string };

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseItem> {
  const decoder = new TextDecoder();
  let buf = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.search(/\r\n|\n|\r/)) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + (buf.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (data.length)
            yield {
              type: 'event',
              event: event || 'message',
              data: data.join('\n'),
              ...(id !== undefined ? { id } : {}),
            };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) {
          yield { type: 'comment', text: line.slice(1).trim() };
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id' && !value.includes('\0')) id = value;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
