/**
 * Pregen progress: the events a run emits (PregenObserver) and a store that folds them into a
 * snapshot (items with status, overall frames, frames/s, ETA) for the ink UI to render.
 */
import type { PlanItem } from './plan.js';

/** What progress reporting needs of an item (plan items and thumbnail items both fit). */
export type ItemRef = Pick<PlanItem, 'index' | 'label' | 'variant' | 'action' | 'reason' | 'frames'>;

/** An item's state as the UI shows it. */
export type ItemStatus = 'queued' | 'rendering' | 'encoding' | 'saving' | 'done' | 'cached' | 'duplicate' | 'failed' | 'cancelled';

/** What a run reports; every method is optional to implement. */
export interface PregenObserver {
  /** the whole plan, once, before anything runs */
  plan?(items: readonly ItemRef[]): void;
  start?(item: ItemRef): void;
  progress?(item: ItemRef, p: { stage: 'render' | 'encode' | 'saving'; frame: number; total: number; fps: number }): void;
  done?(item: ItemRef, r: { ms: number; bytes: number; fps: number }): void;
  fail?(item: ItemRef, reason: string): void;
  cancel?(item: ItemRef): void;
  /** a line worth showing that is not about one item (no live workers, engines starting) */
  notice?(line: string): void;
  finish?(r: { interrupted: boolean }): void;
}

export interface ItemView {
  index: number;
  label: string;
  variant: string;
  status: ItemStatus;
  /** 0..1 */
  progress: number;
  fps: number;
  frames: number;
  reason?: string;
  ms?: number;
  bytes?: number;
}

export interface RunView {
  items: ItemView[];
  /** items this run renders (not cached, duplicate or invalid) */
  toRender: number;
  finishedCount: number;
  counts: Record<ItemStatus, number>;
  framesDone: number;
  framesTotal: number;
  /** frames per second over the run so far */
  fps: number;
  /** seconds left at the current rate, null before the first frame */
  etaSeconds: number | null;
  elapsedMs: number;
  notices: string[];
  finished: boolean;
  interrupted: boolean;
}

const STATUSES: ItemStatus[] = ['queued', 'rendering', 'encoding', 'saving', 'done', 'cached', 'duplicate', 'failed', 'cancelled'];
const ACTIVE = new Set<ItemStatus>(['rendering', 'encoding', 'saving']);
const FINAL = new Set<ItemStatus>(['done', 'failed', 'cancelled']);

/** Folds observer events into RunView snapshots; notifies subscribers at most every `throttleMs`. */
export class ProgressStore implements PregenObserver {
  private items: ItemView[] = [];
  private byIndex = new Map<number, ItemView>();
  private notices: string[] = [];
  private firstFrameAt: number | null = null;
  private readonly startedAt: number;
  private finished = false;
  private interrupted = false;
  private snapshot: RunView;
  private listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly throttleMs = 100,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.snapshot = this.build();
  }

  /** For React's useSyncExternalStore. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): RunView => this.snapshot;

  plan(items: readonly ItemRef[]): void {
    this.items = items.map((i) => ({
      index: i.index,
      label: i.label,
      variant: i.variant,
      status: i.action === 'render' ? 'queued' : i.action === 'invalid' ? 'failed' : i.action,
      progress: i.action === 'cached' || i.action === 'duplicate' ? 1 : 0,
      fps: 0,
      frames: i.action === 'render' ? i.frames : 0,
      reason: i.reason,
    }));
    this.byIndex = new Map(this.items.map((v) => [v.index, v]));
    this.changed(true);
  }

  start(item: ItemRef): void {
    this.patch(item, { status: 'rendering', progress: 0 });
  }

  progress(item: ItemRef, p: { stage: 'render' | 'encode' | 'saving'; frame: number; total: number; fps: number }): void {
    if (p.stage === 'render' && p.frame > 0) this.firstFrameAt ??= this.now();
    const status: ItemStatus = p.stage === 'render' ? 'rendering' : p.stage === 'encode' ? 'encoding' : 'saving';
    this.patch(item, { status, progress: p.total > 0 ? Math.min(1, p.frame / p.total) : 0, fps: p.fps });
  }

  done(item: ItemRef, r: { ms: number; bytes: number; fps: number }): void {
    this.patch(item, { status: 'done', progress: 1, ms: r.ms, bytes: r.bytes, fps: r.fps }, true);
  }

  fail(item: ItemRef, reason: string): void {
    this.patch(item, { status: 'failed', reason }, true);
  }

  cancel(item: ItemRef): void {
    this.patch(item, { status: 'cancelled' }, true);
  }

  notice(line: string): void {
    this.notices.push(line);
    this.changed(true);
  }

  finish(r: { interrupted: boolean }): void {
    this.finished = true;
    this.interrupted = r.interrupted;
    // nothing still queued or running is going to finish now
    for (const v of this.items) if (v.status === 'queued' || ACTIVE.has(v.status)) v.status = 'cancelled';
    this.changed(true);
  }

  private patch(item: ItemRef, p: Partial<ItemView>, now = false): void {
    const v = this.byIndex.get(item.index);
    if (!v) return;
    Object.assign(v, p);
    this.changed(now);
  }

  private changed(immediately: boolean): void {
    if (immediately) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.emit();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.emit();
    }, this.throttleMs);
    this.timer.unref?.();
  }

  private emit(): void {
    this.snapshot = this.build();
    for (const l of this.listeners) l();
  }

  private build(): RunView {
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ItemStatus, number>;
    let framesDone = 0;
    let framesTotal = 0;
    for (const v of this.items) {
      counts[v.status]++;
      framesTotal += v.frames;
      framesDone += v.status === 'done' ? v.frames : Math.round(v.progress * v.frames);
    }
    const now = this.now();
    const secs = this.firstFrameAt === null ? 0 : (now - this.firstFrameAt) / 1000;
    const fps = secs > 0.5 ? framesDone / secs : 0;
    const toRender = this.items.filter((v) => v.frames > 0).length;
    return {
      items: this.items.map((v) => ({ ...v })),
      toRender,
      finishedCount: this.items.filter((v) => v.frames > 0 && FINAL.has(v.status)).length,
      counts,
      framesDone,
      framesTotal,
      fps,
      etaSeconds: fps > 0 ? Math.max(0, (framesTotal - framesDone) / fps) : null,
      elapsedMs: now - this.startedAt,
      notices: [...this.notices],
      finished: this.finished,
      interrupted: this.interrupted,
    };
  }
}
