/**
 * `render-farm up` stops what it started on every way out (docs/getting-started.md): a signal
 * during start-up (after /health answers, before the banner) stops the embedded PostgreSQL, and
 * so does a hang-up (SIGHUP: the terminal closed; its default left PostgreSQL running); a
 * Ctrl-C during a render says what it waits for and for how long, and a second one stops at
 * once, PostgreSQL included (it used to die with Node's default and leave PostgreSQL running,
 * parented to init); a cluster left by an `up` that is gone is stopped, said in one line, and
 * replaced by the next `up`, which stops its own. A Ctrl-C at a terminal (SIGINT to the whole
 * process group) no longer reaches PostgreSQL, which shut down under the render the first Ctrl-C
 * waits for. Real `up` children, real PostgreSQL and Chromium; "no PostgreSQL left" is read
 * from /proc.
 */
import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { processesMatching } from '../helpers/process-tree.js';
import { within } from '../helpers/time-bounds.js';
import { makeUpDataDir, postmasterPid, spawnUp, type UpChild } from '../helpers/up-process.js';
import { waitFor } from '../helpers/wait-for.js';

const started: UpChild[] = [];
const dirs: string[] = [];

/** the postmaster serving `dataDir` (only it carries the data dir on its command line) */
const postgresOf = (dataDir: string) => processesMatching(`${dataDir}/pg`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function up(dataDir: string, opts: { terminalJob?: boolean } = {}): Promise<UpChild> {
  const child = await spawnUp(dataDir, {}, opts);
  started.push(child);
  return child;
}

/** a session token that may submit and poll renders */
async function renderToken(u: UpChild): Promise<string> {
  await u.waitForOutput(/demo API key: \S+/, 180_000);
  const key = /demo API key: (\S+)/.exec(u.output())![1]!;
  return (await call(u, 'POST', '/auth/render-session', key, { scopes: ['render:submit', 'render:status'] })).json
    .session_token;
}

/** submits a render long enough to be under way at the signals (a cinematic video on the CPU); resolves once it is */
async function renderUnderWay(u: UpChild, token: string): Promise<string> {
  const job = await call(u, 'POST', '/render-by-share-code', token, {
    shareCode: 'DEMO-GLASS',
    format: 'video',
    width: 640,
    height: 360,
    profile: 'cinematic',
  });
  expect([200, 202], JSON.stringify(job.json)).toContain(job.status);
  await waitFor(
    'the render to be under way',
    async () => (await call(u, 'GET', `/render-build/${job.json.job_id}`, token)).json?.status,
    {
      timeoutMs: 120_000,
      until: (s) => s === 'processing',
    },
  );
  return job.json.job_id;
}

async function health(u: UpChild): Promise<number> {
  return fetch(`${u.url}/health`).then(
    (r) => r.status,
    () => 0,
  );
}

async function call(
  u: UpChild,
  method: string,
  p: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(u.url + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

afterEach(async () => {
  for (const u of started.splice(0)) {
    if (u.proc.exitCode === null && u.proc.signalCode === null) u.proc.kill('SIGKILL');
    await u.exited;
  }
  for (const dir of dirs.splice(0)) {
    // what a failed test left: stop it before removing its files
    for (const p of postgresOf(dir)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await fs.rm(dir, { recursive: true, force: true });
  }
});

describe('up stops what it started', () => {
  it('SIGTERM after /health answers and before the banner: exits 0 and leaves no PostgreSQL', async () => {
    const dataDir = await makeUpDataDir();
    dirs.push(dataDir);
    const u = await up(dataDir);
    // the API answers while the render worker is still starting (Chromium, the GL self-test)
    await waitFor('/health 200', async () => (await health(u)) === 200, { timeoutMs: 180_000, intervalMs: 50 });
    expect(u.output(), 'the banner came before the signal: no start-up left to cut short').not.toContain(
      'render-farm is up at',
    );
    const pid = await postmasterPid(dataDir);
    expect(postgresOf(dataDir).map((p) => p.pid)).toEqual([pid]);
    u.proc.kill('SIGTERM');
    expect(await within(u.exited, 60_000, 'up to exit after SIGTERM'), u.output()).toBe(0);
    expect(u.output()).toContain('SIGTERM during start-up: stopping what has started');
    expect(u.output()).not.toContain('render-farm is up at');
    expect(alive(pid), `postmaster ${pid} still runs`).toBe(false);
    expect(postgresOf(dataDir)).toEqual([]);
  }, 300_000);

  it('SIGHUP (the terminal closed): stops PostgreSQL, then ends as a hung-up process', async () => {
    const dataDir = await makeUpDataDir();
    dirs.push(dataDir);
    const u = await up(dataDir);
    await u.waitForOutput('render-farm is up at', 180_000);
    const pid = await postmasterPid(dataDir);
    u.proc.kill('SIGHUP');
    await within(u.exited, 60_000, 'up to end after SIGHUP');
    expect(u.proc.signalCode, u.output()).toBe('SIGHUP');
    expect(u.output()).toContain('render-farm: SIGHUP: stopping');
    expect(alive(pid), `postmaster ${pid} still runs`).toBe(false);
    expect(postgresOf(dataDir)).toEqual([]);
  }, 300_000);

  it('Ctrl-C during a render says what it waits for; a second Ctrl-C stops at once, PostgreSQL included', async () => {
    const dataDir = await makeUpDataDir();
    dirs.push(dataDir);
    const u = await up(dataDir);
    await renderUnderWay(u, await renderToken(u));
    const pid = await postmasterPid(dataDir);

    u.proc.kill('SIGINT');
    // item 6: no silence, the count and the bound (RENDER_FARM_DRAIN_TIMEOUT's default 60 s)
    await u.waitForOutput(
      'render-farm: SIGINT: stopping; waiting for 1 render (up to 60 s); Ctrl-C again to stop now',
      10_000,
    );
    expect(u.proc.exitCode, 'up waits for the render').toBeNull();

    u.proc.kill('SIGINT');
    const code = await within(u.exited, 30_000, 'up to exit after the second Ctrl-C');
    expect(u.output()).toContain(
      'render-farm: SIGINT again: stopping now, not waiting for 1 render (released for retry); the API and the embedded PostgreSQL still stop',
    );
    // interrupted, as a shell reports it; but not killed by the signal (that left PostgreSQL behind)
    expect(code, u.output()).toBe(130);
    expect(alive(pid), `postmaster ${pid} still runs`).toBe(false);
    expect(postgresOf(dataDir)).toEqual([]);
  }, 420_000);

  it('Ctrl-C at a terminal (SIGINT to the process group) during a render: PostgreSQL stays up, the render is recorded, up exits 0', async () => {
    const dataDir = await makeUpDataDir();
    dirs.push(dataDir);
    const u = await up(dataDir, { terminalJob: true });
    await renderUnderWay(u, await renderToken(u));
    const pid = await postmasterPid(dataDir);
    const before = u.output().length;
    // what the terminal does on Ctrl-C: the whole foreground process group gets SIGINT
    process.kill(-u.proc.pid!, 'SIGINT');
    await u.waitForOutput('waiting for 1 render', 10_000);
    expect(alive(pid), "PostgreSQL took the terminal's SIGINT and shut down under the render").toBe(true);
    expect(await within(u.exited, 120_000, 'up to exit once the render is done'), u.output()).toBe(0);
    const after = u.output().slice(before);
    // recorded before the database stopped: no outage, no release for retry
    expect(after).toMatch(/"msg":"render completed"/);
    expect(after).not.toMatch(/database unavailable|releasing running renders/);
    expect(postgresOf(dataDir)).toEqual([]);
  }, 420_000);

  it('a cluster left by an up that is gone is stopped (one line) and replaced; the new up stops its own', async () => {
    const dataDir = await makeUpDataDir();
    dirs.push(dataDir);
    const first = await up(dataDir);
    await first.waitForOutput('render-farm is up at', 180_000);
    const left = await postmasterPid(dataDir);
    // what the OOM killer or an old version's second Ctrl-C did: the owner dies, PostgreSQL stays
    first.proc.kill('SIGKILL');
    await first.exited;
    await waitFor('the postmaster to be re-parented', () => alive(left) && postgresOf(dataDir).length === 1, {
      timeoutMs: 10_000,
    });

    const second = await up(dataDir);
    await second.waitForOutput('render-farm is up at', 180_000);
    const notice = second
      .output()
      .split('\n')
      .filter((l) => l.includes('was left running'));
    expect(notice).toEqual([
      `render-farm: embedded PostgreSQL (pid ${left}) in ${dataDir}/pg was left running by a process that is gone: stopped it; starting a new one`,
    ]);
    expect(alive(left)).toBe(false);
    const own = await postmasterPid(dataDir);
    expect(own).not.toBe(left);
    expect(await health(second)).toBe(200);

    second.proc.kill('SIGTERM');
    expect(await within(second.exited, 90_000, 'up to exit after SIGTERM'), second.output()).toBe(0);
    expect(alive(own)).toBe(false);
    expect(postgresOf(dataDir)).toEqual([]);
  }, 420_000);
});
