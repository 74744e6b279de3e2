/**
 * One log line per period for thumbnail jobs instead of one per part: an import of thousands
 * of parts would otherwise flood `up`'s console. Each part is still logged at debug level.
 * `queued` counts parts (of waiting and running batches), as /health does.
 */
import type { Db } from '../db/database.js';
import type { Logger } from '../log.js';
import { thumbnailPartsLeft } from './queue/graphile-tables.js';

export class ThumbnailSummary {
  private count = 0;
  private totalMs = 0;
  private started = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly periodMs = 30_000,
  ) {}

  add(ms: number): void {
    if (this.count === 0) {
      this.started = Date.now();
      // the first of a batch starts the period; the line comes at its end
      this.timer = setTimeout(() => void this.flush(), this.periodMs);
      this.timer.unref();
    }
    this.count++;
    this.totalMs += ms;
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.count) return;
    const n = this.count;
    const avg = Math.round(this.totalMs / n);
    const seconds = Math.max(1, Math.round((Date.now() - this.started) / 1000));
    this.count = 0;
    this.totalMs = 0;
    const left = await thumbnailPartsLeft(this.db.db);
    this.log.info(
      { rendered: n, seconds, avgMs: avg, ...(left !== null ? { queued: left } : {}) },
      `thumbnails: ${n} rendered in ${seconds} s${left !== null ? `, ${left} queued` : ''}`,
    );
  }
}
