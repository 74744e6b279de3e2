/**
 * Live job updates: one EventSource on /console/api/events for the whole app (the server sends
 * only jobs this session may see), fanned out to the pages that listen.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { JobEvent } from '../console-api.js';

type Listener = (e: JobEvent) => void;
const listeners = new Set<Listener>();
let source: EventSource | null = null;

function open(): void {
  if (source) return;
  source = new EventSource('/console/api/events');
  source.addEventListener('job', (m) => {
    let e: JobEvent;
    try {
      e = JSON.parse((m as MessageEvent<string>).data) as JobEvent;
    } catch {
      return; // not ours to show
    }
    for (const l of listeners) l(e);
  });
  // EventSource reconnects by itself; the pages keep their last state meanwhile
}

/** Closes the stream (sign-out: the session it was opened with is gone). */
export function closeJobEvents(): void {
  source?.close();
  source = null;
}

/** Calls `onEvent` for each job event while the component is mounted. */
export function useJobEvents(onEvent: Listener): void {
  const latest = useRef(onEvent);
  latest.current = onEvent;
  useEffect(() => {
    const l: Listener = (e) => latest.current(e);
    listeners.add(l);
    open();
    return () => {
      listeners.delete(l);
    };
  }, []);
}
