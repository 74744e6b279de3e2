/**
 * One LISTEN connection per process for render events (sql/0006_job_events.sql), fanned out to
 * subscribers by render id. NOTIFY reaches every session listening on the database, so an event
 * written by a worker anywhere reaches every serve process. The connection opens on the first
 * subscriber; when it drops, it is reopened with backoff and every subscriber is told to
 * `resync` (notifications sent meanwhile are lost; the render_events table is not).
 */
import pg from 'pg';
import type { RenderStatus } from '../db/schema.js';

export const RENDER_EVENTS_CHANNEL = 'render_farm_render_events';
/** The listeners' key of subscribeAll (render ids are uuids, so it is no render's). */
const ALL = '*';

/** What the trigger announces: the event row's id and the render's new state. */
export interface RenderEventNotice {
  kind: 'status' | 'progress';
  id: number;
  render: string;
  status: RenderStatus;
  progress: number;
}

export type HubMessage = RenderEventNotice | { kind: 'resync' } | { kind: 'closed' };
export type HubListener = (m: HubMessage) => void;

export class RenderEventHub {
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly listeners = new Map<string, Set<HubListener>>();
  private closed = false;
  private retryMs = 500;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  /** Calls `listener` for every event of `renderId`; returns the unsubscribe function. */
  subscribe(renderId: string, listener: HubListener): () => void {
    if (this.closed) {
      queueMicrotask(() => listener({ kind: 'closed' }));
      return () => {};
    }
    let set = this.listeners.get(renderId);
    if (!set) this.listeners.set(renderId, (set = new Set()));
    set.add(listener);
    void this.listening().catch(() => {});
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(renderId);
    };
  }

  /** Calls `listener` for the events of every render (the web console's live job list); returns the unsubscribe function. */
  subscribeAll(listener: HubListener): () => void {
    return this.subscribe(ALL, listener);
  }

  /** Resolves once LISTEN is active (read state only after this, so no change slips between). */
  listening(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('event hub closed'));
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** Number of subscribed listeners (for tests and metrics). */
  get size(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  /** Ends the connection; every subscriber gets `closed`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.broadcast({ kind: 'closed' });
    this.listeners.clear();
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'render-farm-events' });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (n) => {
      if (n.channel !== RENDER_EVENTS_CHANNEL || !n.payload) return;
      let m: RenderEventNotice;
      try {
        m = JSON.parse(n.payload) as RenderEventNotice;
      } catch {
        return;
      }
      const set = this.listeners.get(m.render);
      if (set) for (const l of [...set]) l(m);
      const all = this.listeners.get(ALL);
      if (all) for (const l of [...all]) l(m);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${RENDER_EVENTS_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('event hub closed');
    }
    this.client = client;
    this.retryMs = 500;
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.log(`render events: LISTEN connection lost (${err.message}); reconnecting`);
    void client.end().catch(() => {});
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.closed) return;
      this.listening().then(
        () => this.broadcast({ kind: 'resync' }),
        () => {
          this.retryMs = Math.min(this.retryMs * 2, 10_000);
          this.reconnect();
        },
      );
    }, this.retryMs);
    this.retryTimer.unref();
  }

  private broadcast(m: HubMessage): void {
    for (const set of this.listeners.values()) for (const l of [...set]) l(m);
  }
}
