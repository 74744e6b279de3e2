/**
 * The one way tests wait: until `check` returns something truthy (which is returned), or a
 * timeout that throws naming what was awaited and the last value seen. With `until`, `check`
 * reads a value (a row, a status) and `until` decides; the timeout message then shows the last
 * value read, which says where it stood. With `wake`, an event source such as an in-process
 * worker's job events or a child's output, each event re-checks at once: the interval is only a
 * fallback, not the pace. A `check` that throws ends the wait with its error (use it for "the
 * process exited first").
 */
import type { EventEmitter } from 'node:events';
import { inspect } from 'node:util';

export interface WaitOptions<T = unknown> {
  timeoutMs: number;
  /** re-check at least this often (default 250 ms) */
  intervalMs?: number;
  /** re-check whenever one of these events fires */
  wake?: { emitter: Pick<EventEmitter, 'on' | 'off'>; events: string[] };
  /** done when this holds for the value `check` read (default: the value is truthy) */
  until?: (value: T) => unknown;
  /** what to show of the last value in the timeout message (default: util.inspect, cut short) */
  show?: (value: T) => string;
}

type Falsy = null | undefined | false | 0 | '';

export function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  opts: WaitOptions<T> & { until: (value: T) => unknown },
): Promise<T>;
export function waitFor<T>(
  what: string,
  check: () => T | Falsy | Promise<T | Falsy>,
  opts: WaitOptions<T | Falsy>,
): Promise<T>;
export async function waitFor<T>(what: string, check: () => T | Promise<T>, opts: WaitOptions<T>): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const holds = opts.until ?? ((v: T) => v);
  const show = opts.show ?? ((v: T) => inspect(v, { depth: 3, breakLength: Infinity }).slice(0, 2000));
  let kick: (() => void) | null = null;
  const onEvent = () => kick?.();
  for (const e of opts.wake?.events ?? []) opts.wake!.emitter.on(e, onEvent);
  try {
    for (;;) {
      const value = await check();
      if (holds(value)) return value;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${what}; last seen: ${show(value)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(opts.intervalMs ?? 250, left));
        function done() {
          clearTimeout(timer);
          kick = null;
          resolve();
        }
        kick = done;
      });
    }
  } finally {
    for (const e of opts.wake?.events ?? []) opts.wake!.emitter.off(e, onEvent);
  }
}
