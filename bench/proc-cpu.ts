/**
 * CPU and memory of this process and its descendants, read from /proc (Linux; empty
 * elsewhere), by process kind: Chromium's process types (gpu-process, renderer, utility,
 * browser), ffmpeg, node. Shared by bench:render and the GPU kit (bench/device/kit.ts): on a
 * shared or unfamiliar machine, CPU per frame by process moves less than wall times do.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  ppid: number;
  name: string;
  /** Chromium's process type (gpu-process, renderer, utility, browser), ffmpeg or node */
  kind: string;
  /** utime + stime (+ ended children), ms */
  cpuMs: number;
  rssMb: number;
}

const kinds = new Map<number, string>();
/** What a process is, from its command line (read once per pid). */
function processKind(name: string, pid: number): string {
  let kind = kinds.get(pid);
  if (kind) return kind;
  let cmd = '';
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // gone meanwhile
  }
  kind =
    /--type=([a-z-]+)/.exec(cmd)?.[1] ?? (/chrom/i.test(name) ? 'browser' : /ffmpeg/.test(name) ? 'ffmpeg' : 'node');
  kinds.set(pid, kind);
  return kind;
}

/** This process's descendants from /proc (Linux; empty elsewhere). */
export function descendants(): ProcStat[] {
  const all = new Map<number, ProcStat>();
  try {
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const s = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        // utime + stime (+ cutime + cstime: children that ended, such as ffmpeg at the end of
        // a render, count with the process that reaped them) in USER_HZ (100); rss in 4 KiB pages
        const name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')'));
        all.set(+d, {
          ppid: +f[1]!,
          name,
          kind: processKind(name, +d),
          cpuMs: ((+f[11]! + +f[12]! + +f[13]! + +f[14]!) * 1000) / 100,
          rssMb: (+f[21]! * 4096) / 1e6,
        });
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return [];
  }
  const ours = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = all.get(p)?.ppid)
      if (p === process.pid) return true;
    return false;
  };
  return [...all].filter(([pid]) => ours(pid)).map(([, stat]) => stat);
}

/** Resident memory (MB) of this run's Chromium processes. */
export function chromiumRssMb(): number {
  return descendants()
    .filter((p) => /chrom/i.test(p.name))
    .reduce((sum, p) => sum + p.rssMb, 0);
}

/** CPU ms so far by process kind (processKind), this process and its descendants. */
export function cpuByKind(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of descendants()) out[p.kind] = (out[p.kind] ?? 0) + p.cpuMs;
  return out;
}

/** CPU ms used so far by this process and all its descendants (0 where there is no /proc). */
export function treeCpuMs(): number {
  return descendants().reduce((sum, p) => sum + p.cpuMs, 0);
}

/** Runs fn, returning its result, wall ms and CPU ms (whole process tree, and by process kind). */
export async function measured<T>(
  fn: () => Promise<T>,
): Promise<{ value: T; wall: number; cpu: number; byKind: Record<string, number> }> {
  const c0 = cpuByKind();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const c1 = cpuByKind();
  // a process that ended meanwhile (ffmpeg) is missing from c1: its CPU is lost, as before
  const byKind = Object.fromEntries(Object.keys(c1).map((k) => [k, c1[k]! - (c0[k] ?? 0)]));
  return { value, wall, cpu: Object.values(byKind).reduce((a, b) => a + b, 0), byKind };
}
