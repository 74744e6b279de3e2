/**
 * Every model preparation (PUT /models, `models add/import/preview`, `render --model`) runs here:
 * in a child process of its own (prepare-child.ts), bounded in time and memory, so a file that
 * makes a parser overflow its stack, loop or allocate without end costs that child, never the
 * service that asked. The parent only waits: a crash answers ModelRejectedError (422
 * `invalid_model`), a time or memory overrun ModelTooComplexError (422 `model_too_complex`), and
 * the child's own refusals come back as the errors prepareModel throws. Nothing is stored by the
 * child, so whatever happens to it leaves nothing behind.
 *
 * Memory: the child's V8 heap is capped (--max-old-space-size) and its resident size, native
 * allocations (sharp, WebAssembly) included, is read from /proc and the child killed above the
 * cap (Linux; elsewhere only the heap cap holds). Start-up: ~0.3-0.5 s a preparation for loading
 * the parsers in a fresh process, small next to a preparation and paid only by model uploads.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorDetail } from '../errors.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { ModelRejectedError, ModelTooComplexError, ModelTooLargeError } from './model-errors.js';
import type { ModelInput } from './model-input.js';
import { DEFAULT_PREPARE_LIMITS } from './model-limits.js';
import type { ModelPart, PreparedModel, PrepareOptions } from './prepare-model.js';

/** What the parent sends: one preparation. */
export interface ChildRequest {
  input: ModelInput;
  part: ModelPart;
  options: PrepareOptions;
}

/** A refusal or failure as it crosses the process boundary. */
export type ChildFailure =
  | { kind: 'rejected'; message: string; details: ErrorDetail[] }
  | { kind: 'too_large'; message: string; bytes: number; maxBytes: number }
  | { kind: 'failed'; message: string };

export type ChildReply = { ok: true; prepared: PreparedModel } | { ok: false; error: ChildFailure };

/** How often the child's resident size is read. */
const RSS_POLL_MS = 100;
/** stderr kept from the child, for the log and for Node's own out-of-memory words */
const STDERR_TAIL = 4096;

/** The child's entry: compiled beside the compiled CLI (scripts/build.mjs), else the source through tsx. */
function childEntry(): { file: string; execArgv: string[] } {
  if (import.meta.url.endsWith('.js'))
    return { file: path.join(PACKAGE_ROOT, 'dist', 'part-models', 'prepare-child.js'), execArgv: [] };
  return { file: path.join(PACKAGE_ROOT, 'src', 'part-models', 'prepare-child.ts'), execArgv: ['--import', 'tsx'] };
}

/** Resident size of `pid` in MB from /proc, or null where it cannot be read. */
async function residentMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kb = status?.match(/^VmRSS:\s+(\d+) kB/m)?.[1];
  return kb ? Number(kb) / 1024 : null;
}

function fromChild(name: string, f: ChildFailure): Error {
  if (f.kind === 'too_large') return new ModelTooLargeError(f.message, f.bytes, f.maxBytes);
  if (f.kind === 'rejected') return new ModelRejectedError(f.message, f.details);
  // a parser's own failure: its text (a stack overflow, a TypeError) goes in the details, not the message
  return new ModelRejectedError(
    `${name}: the glTF tools failed on this file while preparing it: check it with the Khronos glTF validator and export it again as .glb from the authoring tool`,
    [{ message: f.message.slice(0, 300) }],
  );
}

/** Observers for tests and logs: the child's pid once it runs. */
export interface IsolationHooks {
  onChild?(pid: number): void;
}

/**
 * prepareModel (prepare-model.ts) in a child process bounded by the limits'
 * modelPrepareTimeoutSeconds and modelPrepareMemoryMb. Throws what prepareModel throws for a
 * model it refuses, ModelRejectedError when the child crashes or is killed, ModelTooComplexError
 * when it overruns a bound.
 */
export async function prepareModelIsolated(
  input: ModelInput,
  part: ModelPart,
  options: PrepareOptions,
  hooks: IsolationHooks = {},
): Promise<PreparedModel> {
  const timeoutS = options.limits.modelPrepareTimeoutSeconds ?? DEFAULT_PREPARE_LIMITS.modelPrepareTimeoutSeconds;
  const memoryMb = options.limits.modelPrepareMemoryMb ?? DEFAULT_PREPARE_LIMITS.modelPrepareMemoryMb;
  const entry = childEntry();
  const child: ChildProcess = fork(entry.file, [], {
    cwd: PACKAGE_ROOT,
    execArgv: [...entry.execArgv, `--max-old-space-size=${memoryMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-STDERR_TAIL);
  });
  if (child.pid) hooks.onChild?.(child.pid);

  return new Promise<PreparedModel>((resolve, reject) => {
    let settled = false;
    let overrun: string | null = null;
    const finish = (err: Error | null, prepared?: PreparedModel) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (err) reject(err);
      else resolve(prepared!);
    };
    const timer = setTimeout(() => {
      overrun = `preparing it took longer than ${timeoutS} s`;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    const poll = setInterval(() => {
      if (!child.pid) return;
      void residentMb(child.pid).then((mb) => {
        if (mb !== null && mb > memoryMb && !settled) {
          overrun = `preparing it needed more than ${memoryMb} MB of memory`;
          child.kill('SIGKILL');
        }
      });
    }, RSS_POLL_MS);
    child.once('message', (reply: ChildReply) =>
      finish(reply.ok ? null : fromChild(input.name, reply.error), reply.ok ? reply.prepared : undefined),
    );
    child.once('error', (err) => finish(new Error(`could not start the model preparation process: ${err.message}`)));
    // 'close', not 'exit': the reply sent just before the end is in by then
    child.once('close', (code, signal) => {
      if (settled) return;
      if (/heap out of memory|Reached heap limit/i.test(stderr))
        overrun ??= `preparing it needed more than ${memoryMb} MB of memory`;
      if (overrun) {
        finish(
          new ModelTooComplexError(
            `${input.name}: ${overrun} (RENDER_FARM_MODEL_PREPARE_${overrun.includes('memory') ? 'MEMORY_MB' : 'TIMEOUT'}): simplify the model (fewer nodes, triangles and texture pixels) and send it again`,
          ),
        );
        return;
      }
      const how = signal ? `was killed (${signal})` : `crashed (exit code ${code})`;
      const last = stderr.trim().split('\n').filter(Boolean).pop();
      finish(
        new ModelRejectedError(
          `${input.name}: preparing the model ${how} before it finished: the file is damaged or built in a way the glTF tools cannot read: export it again as .glb from the authoring tool`,
          last ? [{ message: last.slice(0, 300) }] : [],
        ),
      );
    });
    child.send({ input, part, options } satisfies ChildRequest, (err) => {
      if (err) finish(new Error(`could not hand the model to its preparation process: ${err.message}`));
    });
  });
}
