/** `render-farm doctor` with a data dir that does not exist (and cannot): fails fast, with fixes, creates nothing, and skips what needs it. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/free-port.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');

describe('render-farm doctor --data-dir /proc/x', () => {
  it('fails the data-dir row at once with a fix, and skips the embedded PostgreSQL and artifact store', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // the Chromium probe takes minutes on a loaded CPU-only machine and is not what is measured here
      CHROMIUM_PATH: '/nonexistent/chromium',
      PORT: String(await freePort()),
      RENDER_FARM_PG_PORT: String(await freePort()),
    };
    const t0 = Date.now();
    // before the fix the data-dir check looped in mkdir until its 120 s limit, then the next checks hung on it
    const r = await run('node', [BIN, 'doctor', '--data-dir', '/proc/x', '--json'], { env, timeout: 60_000 }).catch(
      (e) => e,
    );
    const seconds = (Date.now() - t0) / 1000;
    expect(r.killed, 'doctor still running after 60 s').toBeFalsy();
    expect(r.code).toBe(1);
    // about 6 s on a quiet 2-core machine, 21 s with two other test files running under load 12; the data-dir row itself is bounded below
    expect(seconds).toBeLessThan(40);
    const report = JSON.parse(r.stdout);
    const row = (id: string) => report.checks.find((c: { id: string }) => c.id === id);
    expect(row('data-dir')).toMatchObject({ status: 'fail', detail: expect.stringContaining('/proc/x') });
    // doctor only looks (docs/getting-started.md, doctor): it reports the missing directory instead of trying to create it
    expect(row('data-dir').detail).toMatch(/\/proc\/x does not exist$/);
    expect(row('data-dir').fix).toMatch(/"render-farm up" or "render-farm serve" creates it/);
    expect(row('data-dir').fix).toMatch(/--data-dir or RENDER_FARM_DATA_DIR/);
    expect(row('data-dir').ms).toBeLessThan(5_000);
    expect(row('postgres')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/data dir/) });
    expect(row('artifacts')).toMatchObject({ status: 'skip', detail: expect.stringMatching(/data dir/) });
    for (const c of report.checks)
      if (c.status === 'warn' || c.status === 'fail') expect(c.fix, `${c.id} has no fix`).toMatch(/\S/);
    expect(r.stderr.trim()).toBe('render-farm: chromium, data-dir failed');
  }, 90_000);
});
