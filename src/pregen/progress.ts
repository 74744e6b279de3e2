/**
 * Pregen progress: the events a run emits (PregenObserver), a model that folds them into a view
 * (items with status, items published, overall fraction, frames/s, ETA), and a store that hands
 * throttled views to the ink UI. The plain lines read the same model, so both outputs agree.
 */
import type { PlanItem } from './plan.js';

/** What progress reporting needs of an item (plan items and thumbnail items both fit). */
export type ItemRef = Pick<PlanItem, 'index' | 'label' | 'variant' | 'action' | 'reason' | 'frames'>;

/** An item's state as the UI shows it. */
export type ItemStatus =
  | 'queued'
  | 'rendering'
  | 'encoding'
  | 'saving'
  | 'done'
  | 'cached'
  | 'duplicate'
  | 'failed'
  | 'cancelled';

/** What a run reports; every method is optional to implement. */
export interface PregenObserver {
  /** the whole plan, once, before anything runs */
  plan?(items: readonly ItemRef[]): void;
  start?(item: ItemRef): void;
  progress?(
    item: ItemRef,
    p: { stage: 'render' | 'encode' | 'saving'; frame: number; total: number; fps: number },
  ): void;
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
  /** 0..1 of the item's frames drawn */
  progress: number;
  /** 0..1 of the item's work (draw, encode, publish); 1 only once published */
  share: number;
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
  /** of those, the ones published: bytes stored and row written */
  published: number;
  /** 0..1 of the run's work, weighted by frames; 1 only when every item is published */
  fraction: number;
  counts: Record<ItemStatus, number>;
  /** frames drawn so far (the frames/s figure), and all the run's frames */
  framesDone: number;
  framesTotal: number;
  /** frames per second over the run so far */
  fps: number;
  /** seconds left at the smoothed rate; null until the first item is published (a guess from a warming-up first item swung 2x) */
  etaSeconds: number | null;
  elapsedMs: number;
  notices: string[];
  finished: boolean;
  interrupted: boolean;
}

/**
 * Rough shares of an item's time: drawing the frames, then encoding, then publishing (storing the
 * bytes and writing the row). The split varies by format; what matters is that an item whose
 * frames are all drawn is not finished until it is published.
 */
const RENDER_SHARE = 0.85;
const ENCODE_SHARE = 0.1;

/** The share of an item's work done at `stage`, `frame` of `total` frames drawn: below 1 until published. */
export function stageShare(stage: 'render' | 'encode' | 'saving' | 'published', frame = 0, total = 0): number {
  if (stage === 'published') return 1;
  if (stage === 'encode') return RENDER_SHARE;
  if (stage === 'saving') return RENDER_SHARE + ENCODE_SHARE;
  return total > 0 ? RENDER_SHARE * Math.min(1, Math.max(0, frame / total)) : 0;
}

/** A fraction as the whole percent it has reached: 0.999 is 99%, never rounded up to 100%. */
export function percent(fraction: number): number {
  return Math.floor(Math.min(1, Math.max(0, fraction)) * 100);
}

/** The run's overall progress from its items: items published, the fraction of work, and the work left (frame-weighted). */
export function overallProgress(
  items: readonly ItemView[],
  finished: boolean,
): { toRender: number; published: number; fraction: number; workDone: number; workLeft: number } {
  let toRender = 0;
  let published = 0;
  let workDone = 0;
  let workTotal = 0;
  let workLeft = 0;
  for (const v of items) {
    // cached, duplicate and invalid items have no frames: nothing for this run to do
    if (v.frames <= 0) continue;
    toRender++;
    if (v.status === 'done') published++;
    workTotal += v.frames;
    workDone += v.share * v.frames;
    // a failed or cancelled item has nothing left to do in this run, but it was not published either
    if (!FINAL.has(v.status)) workLeft += (1 - v.share) * v.frames;
  }
  const fraction = workTotal > 0 ? (published === toRender ? 1 : workDone / workTotal) : finished ? 1 : 0;
  return { toRender, published, fraction, workDone, workLeft };
}

/**
 * Half-life of the smoothed work rate behind the ETA, in seconds: a burst or a stall of a few
 * seconds moves the ETA a little, a lasting change of pace within a minute or so.
 */
const RATE_HALF_LIFE_S = 20;

const STATUSES: ItemStatus[] = [
  'queued',
  'rendering',
  'encoding',
  'saving',
  'done',
  'cached',
  'duplicate',
  'failed',
  'cancelled',
];
const ACTIVE = new Set<ItemStatus>(['rendering', 'encoding', 'saving']);
const FINAL = new Set<ItemStatus>(['done', 'failed', 'cancelled']);

/** Folds observer events into a RunView (`view()`); pure bookkeeping, no timers. */
export class ProgressModel implements PregenObserver {
  private items: ItemView[] = [];
  private byIndex = new Map<number, ItemView>();
  private notices: string[] = [];
  private firstFrameAt: number | null = null;
  /** the smoothed work rate (frame-weighted work per second), sampled at most once a second; null until an item is published */
  private rate: { at: number; work: number; perSecond: number } | null = null;
  private readonly startedAt: number;
  private finished = false;
  private interrupted = false;

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  plan(items: readonly ItemRef[]): void {
    this.items = items.map((i) => ({
      index: i.index,
      label: i.label,
      variant: i.variant,
      status: i.action === 'render' ? 'queued' : i.action === 'invalid' ? 'failed' : i.action,
      progress: i.action === 'cached' || i.action === 'duplicate' ? 1 : 0,
      share: i.action === 'cached' || i.action === 'duplicate' ? 1 : 0,
      fps: 0,
      frames: i.action === 'render' ? i.frames : 0,
      reason: i.reason,
    }));
    this.byIndex = new Map(this.items.map((v) => [v.index, v]));
    this.changed(true);
  }

  start(item: ItemRef): void {
    this.patch(item, { status: 'rendering', progress: 0, share: 0 });
  }

  progress(
    item: ItemRef,
    p: { stage: 'render' | 'encode' | 'saving'; frame: number; total: number; fps: number },
  ): void {
    if (p.stage === 'render' && p.frame > 0) this.firstFrameAt ??= this.now();
    const status: ItemStatus = p.stage === 'render' ? 'rendering' : p.stage === 'encode' ? 'encoding' : 'saving';
    this.patch(item, {
      status,
      progress: p.total > 0 ? Math.min(1, p.frame / p.total) : 0,
      share: stageShare(p.stage, p.frame, p.total),
      fps: p.fps,
    });
  }

  /** Called once the item is published (bytes stored, row written): only then is it done. */
  done(item: ItemRef, r: { ms: number; bytes: number; fps: number }): void {
    this.patch(
      item,
      { status: 'done', progress: 1, share: stageShare('published'), ms: r.ms, bytes: r.bytes, fps: r.fps },
      true,
    );
  }

  // a failed or cancelled item keeps the share it reached: the bar does not go backwards
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

  /** The run as it stands now. */
  view(): RunView {
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ItemStatus, number>;
    let framesDone = 0;
    let framesTotal = 0;
    for (const v of this.items) {
      counts[v.status]++;
      framesTotal += v.frames;
      framesDone += v.status === 'done' ? v.frames : Math.round(v.progress * v.frames);
    }
    const overall = overallProgress(this.items, this.finished);
    const now = this.now();
    const secs = this.firstFrameAt === null ? 0 : (now - this.firstFrameAt) / 1000;
    const fps = secs > 0.5 ? framesDone / secs : 0;
    // the ETA counts encoding and publishing too, in the same frame-weighted work as the fraction
    const workRate = this.rate?.perSecond ?? 0;
    return {
      items: this.items.map((v) => ({ ...v })),
      toRender: overall.toRender,
      published: overall.published,
      fraction: overall.fraction,
      counts,
      framesDone,
      framesTotal,
      fps,
      etaSeconds: workRate > 0 ? overall.workLeft / workRate : null,
      elapsedMs: now - this.startedAt,
      notices: [...this.notices],
      finished: this.finished,
      interrupted: this.interrupted,
    };
  }

  /**
   * Folds the work done since the last sample into the smoothed rate (an EWMA over time, so
   * uneven event spacing weighs right). Seeded when the first item is published with the
   * average since the first frame, warm-up included; no rate, so no ETA, before that.
   */
  private sampleRate(): void {
    const { workDone, published } = overallProgress(this.items, this.finished);
    const now = this.now();
    if (!this.rate) {
      const secs = this.firstFrameAt === null ? 0 : (now - this.firstFrameAt) / 1000;
      if (published > 0 && secs > 0) this.rate = { at: now, work: workDone, perSecond: workDone / secs };
      return;
    }
    const dt = (now - this.rate.at) / 1000;
    if (dt < 1) return;
    const recent = (workDone - this.rate.work) / dt;
    const weight = 1 - 2 ** (-dt / RATE_HALF_LIFE_S);
    this.rate = { at: now, work: workDone, perSecond: this.rate.perSecond + weight * (recent - this.rate.perSecond) };
  }

  /** After each event; `immediately` for the ones worth showing at once (the store repaints). */
  protected changed(_immediately: boolean): void {}

  private patch(item: ItemRef, p: Partial<ItemView>, now = false): void {
    const v = this.byIndex.get(item.index);
    if (!v) return;
    Object.assign(v, p);
    // before the view is handed out: the rate includes this event
    this.sampleRate();
    this.changed(now);
  }
}

/** A ProgressModel for React: notifies subscribers with a fresh view at most every `throttleMs`. */
export class ProgressStore extends ProgressModel {
  private snapshot: RunView;
  private listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly throttleMs = 100,
    now: () => number = Date.now,
  ) {
    super(now);
    this.snapshot = this.view();
  }

  /** For React's useSyncExternalStore. */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): RunView => this.snapshot;

  protected override changed(immediately: boolean): void {
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
    this.snapshot = this.view();
    for (const l of this.listeners) l();
  }
}
