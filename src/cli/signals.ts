/**
 * SIGINT, SIGTERM and SIGHUP for a long-running command (up, serve, worker). The handlers go in before
 * the command starts anything and stay until it has stopped everything: a signal nobody
 * listens to gets Node's default, which ends the process on the spot, and an embedded
 * PostgreSQL it started runs on with no owner. The first signal asks for a graceful stop
 * (renders drain); the second for a fast one: stop waiting for work in progress, but still stop
 * everything the process started. Each signal says in one line what happens now.
 */

/** Ends a start-up cut short by a signal (caught by the command, which then stops what started). */
export class StoppedBySignal extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
    this.name = 'StoppedBySignal';
  }
}

export interface StopSignals {
  /** aborted at the first signal */
  readonly stop: AbortSignal;
  /** aborted at the second: stop now (work in progress is given up, what started still stops) */
  readonly now: AbortSignal;
  /** resolves with the first signal */
  readonly first: Promise<NodeJS.Signals>;
  /** the first signal, or null */
  readonly received: NodeJS.Signals | null;
  /** between start-up steps: throws StoppedBySignal once a signal came */
  throwIfStopping(): void;
  /** removes the handlers: only once everything the command started is stopped */
  dispose(): void;
}

export interface StopLines {
  /** said at the first signal: what the stop waits for (`signal` is SIGINT, SIGTERM or SIGHUP) */
  first(signal: NodeJS.Signals): string;
  /** said at the second (and any later) signal */
  second(signal: NodeJS.Signals): string;
}

/** SIGHUP too: a closed terminal sends it, and its default would leave PostgreSQL behind like the others' */
const CAUGHT = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** What to press or send for the second signal: a terminal user presses Ctrl-C, a supervisor sends SIGTERM. */
export function againHint(signal: NodeJS.Signals): string {
  return signal === 'SIGINT' ? 'Ctrl-C again' : `${signal} again`;
}

/** A line on stderr; one that cannot be written (the terminal is gone: SIGHUP) does not stop the stopping. */
function sayOnStderr(line: string): void {
  try {
    process.stderr.write(`render-farm: ${line}\n`);
  } catch {
    // nobody to tell
  }
}

/** Installs the handlers now; `lines` are read at each signal (they may describe the state then). */
export function catchStopSignals(lines: StopLines, say: (line: string) => void = sayOnStderr): StopSignals {
  const stop = new AbortController();
  const now = new AbortController();
  let received: NodeJS.Signals | null = null;
  let resolveFirst!: (s: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((r) => (resolveFirst = r));
  const onSignal = (signal: NodeJS.Signals) => {
    // the terminal is gone: output fails (EIO) from now on, which must not end the process
    // before it has stopped what it started
    if (signal === 'SIGHUP')
      for (const out of [process.stdout, process.stderr]) out.removeAllListeners('error').on('error', () => {});
    if (!received) {
      received = signal;
      say(lines.first(signal));
      stop.abort(signal);
      resolveFirst(signal);
      return;
    }
    say(lines.second(signal));
    now.abort(signal);
  };
  // process.on, not once: a second signal must find a handler too
  for (const s of CAUGHT) process.on(s, onSignal);
  return {
    stop: stop.signal,
    now: now.signal,
    first,
    get received() {
      return received;
    },
    throwIfStopping() {
      if (received) throw new StoppedBySignal(received);
    },
    dispose() {
      for (const s of CAUGHT) process.off(s, onSignal);
      // everything is stopped. After a hang-up, end as a hung-up process does: Node's own exit
      // restores the terminal's mode, fails with EIO and aborts on an assertion (Node 20)
      if (received === 'SIGHUP') process.kill(process.pid, 'SIGHUP');
    },
  };
}

/** How a command that ran until a signal ends: 0 after a graceful stop, 128+n after a forced one (as a shell reports a signal). */
export function exitCodeAfter(signals: StopSignals): number {
  const forced = signals.now.reason as NodeJS.Signals | undefined;
  if (!signals.now.aborted || !forced) return 0;
  return 128 + (forced === 'SIGINT' ? 2 : forced === 'SIGHUP' ? 1 : 15);
}

/**
 * Keeps a started command alive until the first signal, then runs `shutdown` once (`now`
 * aborts at a second signal: the shutdown stops waiting for work in progress); or until `fatal`
 * resolves with an error (a part it cannot run without is gone for good): then the shutdown
 * gets `fatalShutdownMs` at most, since it cannot drain into what is gone, and the command
 * fails with that error. `signals` were caught before the command started anything. Also when
 * `ended` resolves: what it runs stopped by itself (a worker drained on request through the
 * database): the shutdown runs as on SIGTERM, with `why` said in one line.
 */
export async function runUntilSignal(
  signals: StopSignals,
  shutdown: (now: AbortSignal) => Promise<void>,
  opts: { fatal?: Promise<Error>; fatalShutdownMs?: number; ended?: { done: Promise<unknown>; why: string } } = {},
): Promise<void> {
  const never = new Promise<never>(() => {});
  const ended = opts.ended ? opts.ended.done.then(() => 'ended' as const) : never;
  const outcome = await Promise.race([signals.first.then(() => null), ended, opts.fatal ?? never]);
  if (outcome === null) {
    await shutdown(signals.now);
    return;
  }
  if (outcome === 'ended') {
    sayOnStderr(`${opts.ended!.why}, shutting down`);
    await shutdown(signals.now);
    return;
  }
  const bound = new Promise((r) => setTimeout(r, opts.fatalShutdownMs ?? 10_000).unref());
  await Promise.race([shutdown(signals.now).catch(() => {}), bound]);
  throw outcome;
}
