/**
 * Doctor: the API port and (without DATABASE_URL) the embedded PostgreSQL port are free, or
 * held by this farm itself (a running render-farm API, this data dir's PostgreSQL).
 */
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config.js';
import type { CheckOutcome } from './check.js';

function canListen(port: number, host: string): Promise<boolean | string> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'EADDRINUSE' ? false : (err.code ?? err.message)),
    );
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** The version of the render-farm answering /health there, or null (another program, or no answer within `timeoutMs`). */
export async function renderFarmAt(host: string, port: number, timeoutMs: number): Promise<string | null> {
  const look = async () => {
    try {
      const r = await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/health`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      const j = (await r.json()) as { version?: string; queue?: unknown };
      return j.version && j.queue ? j.version : null;
    } catch {
      return null;
    }
  };
  // a timer of our own: a peer that closes without answering can leave fetch pending with
  // nothing else keeping the process alive (AbortSignal.timeout's timer does not), which ends it with exit 13
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      look(),
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function embeddedPgPort(dataDir: string): Promise<number | null> {
  try {
    const lines = (await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n');
    process.kill(Number(lines[0]), 0);
    return Number(lines[3]) || null;
  } catch {
    return null;
  }
}

export async function checkPorts(cfg: Config): Promise<CheckOutcome> {
  const notes: string[] = [];
  const problems: string[] = [];
  const fixes: string[] = [];
  let warn = false;
  if (cfg.port === 0) {
    notes.push('API port 0 (any free port)');
  } else {
    const free = await canListen(cfg.port, cfg.host);
    if (free === true) notes.push(`API ${cfg.host}:${cfg.port} free`);
    else if (free === false) {
      const version = await renderFarmAt(cfg.host === '0.0.0.0' ? '127.0.0.1' : cfg.host, cfg.port, 3_000);
      if (version) {
        warn = true;
        notes.push(`API ${cfg.host}:${cfg.port} is used by a running render-farm ${version}`);
        fixes.push('another "up" or "serve" needs a different --port');
      } else {
        problems.push(`API ${cfg.host}:${cfg.port} is taken by another program`);
        fixes.push('pass --port or set PORT');
      }
    } else {
      problems.push(`API ${cfg.host}:${cfg.port} cannot be bound (${free})`);
      fixes.push('check --host/HOST names an address of this machine');
    }
  }
  if (!cfg.databaseUrl) {
    const ours = await embeddedPgPort(cfg.dataDir);
    if (ours === cfg.embeddedPgPort)
      notes.push(`PostgreSQL ${cfg.embeddedPgPort} used by this data dir's running cluster`);
    else if ((await canListen(cfg.embeddedPgPort, '127.0.0.1')) === true)
      notes.push(`embedded PostgreSQL ${cfg.embeddedPgPort} free`);
    else {
      problems.push(`embedded PostgreSQL port ${cfg.embeddedPgPort} is taken by another program`);
      fixes.push('set --pg-port or RENDER_FARM_PG_PORT, or DATABASE_URL');
    }
  }
  const detail = [...problems, ...notes].join('; ');
  if (problems.length) return { status: 'fail', detail, fix: fixes.join('; ') };
  return { status: warn ? 'warn' : 'ok', detail, ...(warn ? { fix: fixes.join('; ') } : {}) };
}
