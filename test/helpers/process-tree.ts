/** A process and its descendants from /proc (Linux): what each is (Chromium's --type) and the CPU it used. */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  /** the command line, arguments joined by spaces (Chromium rewrites its own into one string) */
  args: string;
  /** user + system CPU seconds so far */
  cpuSeconds: number;
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** [ppid, utime + stime in ticks] of one process, or null when it is gone. */
function stat(pid: number): [number, number] | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after "(comm) ": state ppid ... utime(14th field overall) stime(15th)
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return [Number(f[1]), Number(f[11]) + Number(f[12])];
  } catch {
    return null;
  }
}

/** `root` and every live descendant. */
export function processTree(root: number): ProcessInfo[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = stat(Number(d));
    if (st) children.set(st[0], [...(children.get(st[0]) ?? []), Number(d)]);
  }
  const out: ProcessInfo[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    const st = stat(pid);
    if (!st) continue;
    let args = '';
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue;
    }
    out.push({ pid, args, cpuSeconds: st[1] / TICKS });
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A Chromium process's role: `browser`, `gpu-process`, `renderer`, `zygote`, `utility:<service>`, ... */
export function chromiumRole(args: string): string {
  const type = args.match(/--type=(\S+)/)?.[1];
  if (!type) return 'browser';
  const sub = args.match(/--utility-sub-type=(\S+)/)?.[1];
  return sub ? `${type}:${sub}` : type;
}

/** Every live process whose command line contains `text`: e.g. a data dir, for the PostgreSQL processes serving it. */
export function processesMatching(text: string): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const args = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const st = stat(Number(d));
      if (st && args.includes(text)) out.push({ pid: Number(d), args, cpuSeconds: st[1] / TICKS });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
