/** A child process's output as it comes, for tests that wait on what a real `up` or `worker` prints. */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { waitFor } from './wait-for.js';

export interface WatchedOutput {
  /** everything it wrote, stdout and stderr interleaved */
  output(): string;
  /** resolves with the exit code (null: killed by a signal) */
  exited: Promise<number | null>;
  /** resolves once the output matches; rejects if the process exits first or the bound passes */
  waitForOutput(text: string | RegExp, timeoutMs: number): Promise<void>;
}

/** Collects `proc`'s stdout and stderr; `name` says who in the messages of a wait ("up", "the worker"). */
export function watchOutput(proc: ChildProcess, name: string): WatchedOutput {
  const chunks: string[] = [];
  // fires on every chunk of output and at exit, so waits on the output re-check at once
  const changed = new EventEmitter();
  const onData = (d: Buffer) => {
    chunks.push(d.toString());
    changed.emit('change');
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((r) =>
    proc.on('exit', (code) => {
      exitCode = code;
      changed.emit('change');
      r(code);
    }),
  );
  const output = () => chunks.join('');
  const waitForOutput = async (text: string | RegExp, timeoutMs: number) => {
    const seen = () => (typeof text === 'string' ? output().includes(text) : text.test(output()));
    await waitFor(
      `${name} to print ${typeof text === 'string' ? `"${text}"` : String(text)}`,
      () => {
        if (seen()) return true;
        if (exitCode !== undefined)
          throw new Error(`${name} exited ${exitCode} before printing ${String(text)}:\n${output()}`);
        return false;
      },
      { timeoutMs, wake: { emitter: changed, events: ['change'] }, show: () => `the output so far:\n${output()}` },
    );
  };
  return { output, exited, waitForOutput };
}
