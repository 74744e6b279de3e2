/**
 * `render-farm up` outlives its embedded PostgreSQL (docs/design-decisions.md): a postmaster killed
 * with SIGKILL (what the OOM killer does) is restarted with one log line, /health answers 200
 * again, and renders (one in flight at the kill, one submitted after) complete. When the
 * server cannot be brought back, `up` exits non-zero with one clear line so that a
 * supervisor (systemd, Docker) takes over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { valueWithin } from '../helpers/time-bounds.js';
import { upEnv } from '../helpers/up-process.js';
import { waitFor } from '../helpers/wait-for.js';

const BIN = path.resolve('bin/render-farm');

interface Up {
  proc: ChildProcess;
  url: string;
  key: string;
  dataDir: string;
  output(): string;
  exited: Promise<number | null>;
}

const running: Up[] = [];

/** `up` on a fresh data dir and PostgreSQL port; resolves once it printed its banner. */
async function startUp(): Promise<Up> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-up-restart-'));
  const proc = spawn(process.execPath, [BIN, 'up', '--port', '0'], {
    env: await upEnv(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  proc.stdout!.on('data', (d: Buffer) => chunks.push(d.toString()));
  proc.stderr!.on('data', (d: Buffer) => chunks.push(d.toString()));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r((code = c))));
  const output = () => chunks.join('');
  const up = { proc, dataDir, output, exited } as Up;
  running.push(up);
  const banner = await waitFor(
    'up to print its banner',
    () => {
      if (code !== undefined) throw new Error(`up exited ${code}:\n${output()}`);
      const url = /render-farm is up at (\S+)/.exec(output())?.[1];
      const key = /demo API key: (\S+)/.exec(output())?.[1];
      return url && key ? { url, key } : null;
    },
    { timeoutMs: 180_000 },
  );
  return Object.assign(up, banner);
}

async function health(up: Up): Promise<number> {
  return fetch(`${up.url}/health`).then(
    (r) => r.status,
    () => 0,
  );
}

async function postmasterPid(up: Up): Promise<number> {
  const text = await fs.readFile(path.join(up.dataDir, 'pg', 'postmaster.pid'), 'utf8');
  return Number(text.split('\n')[0]);
}

async function call(
  up: Up,
  method: string,
  p: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(up.url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

async function sessionToken(up: Up): Promise<string> {
  const r = await call(up, 'POST', '/auth/render-session', up.key, {
    scopes: ['data:read', 'render:submit', 'render:status'],
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.session_token;
}

async function submit(up: Up, token: string, options: Record<string, unknown>): Promise<string> {
  const r = await call(up, 'POST', '/render-by-share-code', token, { shareCode: 'DEMO-GLASS', ...options });
  expect([200, 202], JSON.stringify(r.json)).toContain(r.status);
  return r.json.job_id;
}

async function jobStatus(up: Up, token: string, jobId: string): Promise<string | null> {
  return call(up, 'GET', `/render-build/${jobId}`, token).then(
    (r) => (r.status === 200 ? r.json.status : null),
    () => null,
  );
}

afterEach(async () => {
  for (const up of running.splice(0)) {
    if (up.proc.exitCode === null && up.proc.signalCode === null) up.proc.kill('SIGKILL');
    await up.exited;
    // a killed `up` leaves its PostgreSQL running; stop it before removing its files
    const pid = await postmasterPid(up).catch(() => 0);
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await fs.rm(up.dataDir, { recursive: true, force: true });
  }
});

describe('up and its embedded PostgreSQL', () => {
  it('restarts a killed PostgreSQL: one log line, /health 200 again, renders complete', async () => {
    const up = await startUp();
    await waitFor('/health 200', async () => (await health(up)) === 200, { timeoutMs: 30_000 });
    const token = await sessionToken(up);
    // a render in flight at the kill: it finishes (or is re-run) once the database is back
    const inFlight = await submit(up, token, {
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      cameraZoom: 1.31,
    });
    await waitFor('the render to be under way', async () => (await jobStatus(up, token, inFlight)) === 'processing', {
      timeoutMs: 60_000,
    });

    const pid = await postmasterPid(up);
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    await waitFor(
      'the restart log line',
      () => up.output().includes('embedded PostgreSQL exited (signal SIGKILL); restarting (attempt 1/3)'),
      { timeoutMs: 15_000 },
    );
    await waitFor('/health 200 after the restart', async () => (await health(up)) === 200, { timeoutMs: 30_000 });
    const backInMs = Date.now() - killedAt;
    expect(up.output()).toContain('embedded PostgreSQL is back');
    // one line per restart, not one per retry, and not drowned in graphile-worker's reconnect errors
    expect(up.output().split('restarting (attempt').length - 1).toBe(1);
    expect(up.output().split('Error with notify listener').length - 1).toBeLessThanOrEqual(1);
    // a new server on the same data: the session token made before the kill still works below
    expect(await postmasterPid(up)).not.toBe(pid);

    const after = await submit(up, token, {
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      cameraZoom: 1.33,
    });
    await waitFor(
      'the render submitted after the restart to complete',
      async () => (await jobStatus(up, token, after)) === 'completed',
      { timeoutMs: 120_000 },
    );
    await waitFor(
      'the render in flight at the kill to complete',
      async () => (await jobStatus(up, token, inFlight)) === 'completed',
      { timeoutMs: 180_000 },
    );
    expect(up.proc.exitCode, up.output()).toBeNull();
    console.log(
      `/health 200 again ${backInMs} ms after the kill; both renders completed ${Date.now() - killedAt} ms after it`,
    );

    up.proc.kill('SIGTERM');
    expect(await up.exited, up.output()).toBe(0);
  }, 600_000);

  it('gives up after 3 failed restarts and exits non-zero with one clear line', async () => {
    const up = await startUp();
    await waitFor('/health 200', async () => (await health(up)) === 200, { timeoutMs: 30_000 });
    // read only at start: the running server does not mind, every restart fails on it
    await fs.appendFile(path.join(up.dataDir, 'pg', 'postgresql.conf'), '\nthis is not a setting\n');
    process.kill(await postmasterPid(up), 'SIGKILL');
    const killedAt = Date.now();
    const code = await valueWithin(up.exited, 60_000, 'hung' as const);
    expect(code, up.output()).toBe(1);
    const seconds = (Date.now() - killedAt) / 1000;
    const out = up.output();
    for (const n of [1, 2, 3]) expect(out).toContain(`restarting (attempt ${n}/3)`);
    expect(out).not.toContain('attempt 4/3');
    expect(out).toMatch(
      /render-farm: embedded PostgreSQL could not be restarted \(3 attempts within 60 s\b.*\): exiting so that a supervisor can take over/,
    );
    console.log(`up exited ${seconds.toFixed(1)} s after the kill`);
  }, 300_000);
});
