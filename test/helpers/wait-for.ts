/**
 * The one way tests wait: until `check` returns something truthy (which is returned), or a
 * timeout that throws naming what was awaited. With `wake`, an event source such as an
 * in-process worker's job events, each event re-checks at once: the interval is only a
 * fallback, not the pace.
 */
import type { EventEmitter } from 'node:events';

export interface WaitOptions {
  timeoutMs: number;
  /** re-check at least this often (default 250 ms) */
  intervalMs?: number;
  /** re-check whenever one of these events fires */
  wake?: { emitter: Pick<EventEmitter, 'on' | 'off'>; events: string[] };
}

export async function waitFor<T>(what: string, check: () => T | null | undefined | false | Promise<T | null | undefined | false>, opts: WaitOptions): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let kick: (() => void) | null = null;
  const onEvent = () => kick?.();
  for (const e of opts.wake?.events ?? []) opts.wake!.emitter.on(e, onEvent);
  try {
    for (;;) {
      const value = await check();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${what}`);
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
