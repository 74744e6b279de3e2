/**
 * A Server-Sent Events response: the headers proxies need to pass a stream unbuffered, a
 * `retry` hint, named events with ids, and heartbeat comments so idle streams survive proxies.
 */
import type { Response } from 'express';
import type { RenderEventHub } from '../events/render-event-hub.js';
import { HttpError } from './http-error.js';

export class SseStream {
  private readonly beat: NodeJS.Timeout;
  private ended = false;

  constructor(
    private readonly res: Response,
    heartbeatMs: number,
    retryMs = 3_000,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Connection', 'keep-alive');
    // nginx buffers responses unless told not to
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.write(`retry: ${retryMs}\n\n`);
    this.beat = setInterval(() => this.write(`: heartbeat ${new Date().toISOString()}\n\n`), heartbeatMs);
    this.beat.unref();
    res.on('close', () => this.end());
  }

  send(event: string, data: unknown, id?: number | string): void {
    const lines = [
      ...(id !== undefined ? [`id: ${id}`] : []),
      `event: ${event}`,
      ...JSON.stringify(data)
        .split('\n')
        .map((l) => `data: ${l}`),
    ];
    this.write(lines.join('\n') + '\n\n');
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.beat);
    if (!this.res.writableEnded) this.res.end();
  }

  private write(chunk: string): void {
    if (!this.ended && !this.res.writableEnded) this.res.write(chunk);
  }
}

/**
 * Opens the job-event stream of a response once the hub listens: a 503 to retry while the
 * database is unreachable, so no stream starts that could never carry an event.
 */
export async function openEventStream(hub: RenderEventHub, res: Response, heartbeatMs: number): Promise<SseStream> {
  try {
    await hub.listening();
  } catch {
    throw new HttpError(
      503,
      'database_unavailable',
      'cannot listen for job events: the database is unreachable; retry shortly',
      undefined,
      { 'Retry-After': '5' },
    );
  }
  return new SseStream(res, heartbeatMs);
}
