/**
 * What PostgreSQL spends on the farm, read from the outside: CPU seconds of the server's whole
 * process tree (/proc utime+stime of the postmaster and its backends, plus those of backends
 * that already exited), and connections by application_name (each worker process names
 * itself `render-farm worker <pid>`), sampled while the load runs.
 */
import fs from 'node:fs/promises';
import type pg from 'pg';

/** USER_HZ on Linux */
const TICK = 100;

/** The postmaster's pid (the parent of our own backend), or null when PostgreSQL is not on this machine. */
export async function postmasterPid(pool: pg.Pool): Promise<number | null> {
  const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const stat = await fs.readFile(`/proc/${rows[0]!.pid}/stat`, 'utf8').catch(() => null);
  if (!stat) return null;
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  return Number.isInteger(ppid) && ppid > 1 ? ppid : null;
}

/** CPU seconds of a process and every descendant (utime+stime, plus reaped children's cutime+cstime). */
export async function treeCpuSeconds(root: number): Promise<number> {
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const d of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const s = await fs.readFile(`/proc/${d}/stat`, 'utf8').catch(() => null);
    if (!s) continue;
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    // after the name: state ppid ... utime(11) stime(12) cutime(13) cstime(14), counted from state
    stats.set(Number(d), {
      ppid: Number(f[1]),
      cpu: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK,
    });
  }
  let total = 0;
  for (const [pid, st] of stats) {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; hops++) {
      if (p === root) {
        total += st.cpu;
        break;
      }
      p = stats.get(p)?.ppid;
    }
  }
  return total;
}

export interface ConnectionSample {
  total: number;
  /** connections of each worker process (application_name `render-farm worker <pid>`) */
  perWorker: number[];
}

/** Connections to this database now, by process. */
export async function sampleConnections(pool: pg.Pool): Promise<ConnectionSample> {
  const { rows } = await pool.query<{ app: string; n: number }>(
    `SELECT application_name AS app, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() GROUP BY 1`,
  );
  return {
    total: rows.reduce((s, r) => s + r.n, 0),
    perWorker: rows.filter((r) => r.app.startsWith('render-farm worker')).map((r) => r.n),
  };
}

export interface ConnectionSummary {
  /** the most connections seen at once on the farm's database */
  maxTotal: number;
  /** the most one worker process held at once */
  maxPerWorker: number;
  /** mean over samples of the mean per worker process */
  meanPerWorker: number;
  samples: number;
}

/** Samples connections every `everyMs` until stopped. */
export function connectionSampler(pool: pg.Pool, everyMs = 500): { stop(): Promise<ConnectionSummary> } {
  const samples: ConnectionSample[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.push(await sampleConnections(pool).catch(() => ({ total: 0, perWorker: [] })));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      const withWorkers = samples.filter((s) => s.perWorker.length > 0);
      return {
        maxTotal: Math.max(0, ...samples.map((s) => s.total)),
        maxPerWorker: Math.max(0, ...samples.flatMap((s) => s.perWorker)),
        meanPerWorker: withWorkers.length
          ? withWorkers.reduce((a, s) => a + s.perWorker.reduce((x, y) => x + y, 0) / s.perWorker.length, 0) /
            withWorkers.length
          : 0,
        samples: samples.length,
      };
    },
  };
}
