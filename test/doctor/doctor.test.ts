/** `render-farm doctor`: failure rows from config paths and an unreachable database; a full pass on real components. */
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/db/free-port.js';
import { formatReport } from '../../src/doctor/format-report.js';
import { runDoctor } from '../../src/doctor/run-doctor.js';
import { useTestDb } from '../helpers/db.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');

describe('render-farm doctor', () => {
  const t = useTestDb();

  it('reports missing tools (config paths) and an unreachable database as FAIL rows with fixes; exit 1', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
      CHROMIUM_PATH: '/nonexistent/chromium',
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none',
      PORT: String(await freePort()),
    };
    const json = await run('node', [BIN, 'doctor', '--json'], { env, timeout: 120_000 }).catch((e) => e);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    const row = (id: string) => report.checks.find((c: { id: string }) => c.id === id);
    expect(report.ok).toBe(false);
    expect(row('chromium')).toMatchObject({
      status: 'fail',
      detail: 'Chromium not found at /nonexistent/chromium (from CHROMIUM_PATH)',
    });
    expect(row('chromium').fix).toMatch(/unset CHROMIUM_PATH/);
    expect(row('webgl')).toMatchObject({ status: 'skip' });
    expect(row('gpu')).toMatchObject({ status: 'skip' });
    expect(row('ffmpeg')).toMatchObject({ status: 'fail' });
    expect(row('ffmpeg').fix).toMatch(/FFMPEG_PATH/);
    expect(row('ffprobe').status).toBe('ok');
    expect(row('postgres')).toMatchObject({ status: 'fail' });
    expect(row('postgres').detail).toMatch(
      /cannot connect to PostgreSQL at postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none/,
    );
    expect(row('postgres').fix).toMatch(/DATABASE_URL/);
    expect(JSON.stringify(report)).not.toContain('secret');
    expect(row('data-dir').status).toBe('ok');
    expect(row('artifacts').status).toBe('ok');
    expect(row('ports').status).toBe('ok');

    const table = await run('node', [BIN, 'doctor'], { env, timeout: 120_000 }).catch((e) => e);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^CHECK\s+RESULT\s+DETAIL$/m);
    expect(table.stdout).toMatch(/^chromium\s+FAIL\s+Chromium not found at \/nonexistent\/chromium/m);
    expect(table.stdout).toMatch(/^\s+fix: fix the path or unset CHROMIUM_PATH/m);
    expect(table.stdout).toMatch(/3 checks failed/);
    expect(table.stderr.trim()).toBe('render-farm: chromium, ffmpeg, postgres failed');
  });

  it('worker names the missing component and points at doctor in one more line', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
      DATABASE_URL: t.url,
      CHROMIUM_PATH: '/nonexistent/chromium',
    };
    const r = await run('node', [BIN, 'worker'], { env, timeout: 60_000 }).catch((e) => e);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      'render-farm: Chromium not found at /nonexistent/chromium (from CHROMIUM_PATH): fix the path or unset CHROMIUM_PATH to use a system Chromium',
      'render-farm: hint: run "render-farm doctor" to check Chromium, WebGL, ffmpeg, PostgreSQL, storage and ports, each with its fix',
    ]);
  });

  it('flags a port taken by another program', async () => {
    const busy = http.createServer((_req, res) => res.end('not render-farm'));
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const { checkPorts } = await import('../../src/doctor/ports-check.js');
      const r = await checkPorts(loadConfig({ databaseUrl: t.url, dataDir: t.cfg.dataDir, port }, {}));
      expect(r).toMatchObject({
        status: 'fail',
        detail: `API 127.0.0.1:${port} is taken by another program`,
        fix: 'pass --port or set PORT',
      });
    } finally {
      busy.close();
    }
  });

  it('passes on this machine: real Chromium with a measured probe, ffmpeg, the migrated test database, the store', async () => {
    const cfg = loadConfig(
      { databaseUrl: t.url, dataDir: t.cfg.dataDir, port: await freePort() },
      { PATH: process.env.PATH },
    );
    const seen: string[] = [];
    const report = await runDoctor(cfg, (c) => seen.push(c.id));
    const row = (id: string) => report.checks.find((c) => c.id === id)!;
    expect(seen).toEqual([
      'node',
      'chromium',
      'webgl',
      'gpu',
      'webcodecs',
      'ffmpeg',
      'ffprobe',
      'data-dir',
      'ports',
      'postgres',
      'artifacts',
    ]);
    for (const id of ['chromium', 'ffmpeg', 'ffprobe', 'data-dir', 'ports', 'postgres', 'artifacts'])
      expect(row(id).status, `${id}: ${row(id).detail}`).toBe('ok');
    // EGL on this machine; SwiftShader would be a warning, never a failure
    expect(['ok', 'warn']).toContain(row('webgl').status);
    expect(row('webgl').data).toMatchObject({ backend: expect.stringMatching(/^(egl|swiftshader)$/) });
    expect(row('webgl').data!.msPerFrame as number).toBeGreaterThan(0);
    expect(row('webgl').detail).toMatch(/512x512 cinematic probe: \d+ ms\/frame/);
    // no GPU here: a fact, neither a pass nor a warning; with one, its driver, renderer and probe
    if (row('gpu').data!.found)
      expect(row('gpu')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/ms\/frame$/) });
    else
      expect(row('gpu')).toMatchObject({
        status: 'info',
        detail: expect.stringMatching(/^none found \(CPU: (egl llvmpipe|swiftshader SwiftShader)\)/),
      });
    expect(row('postgres').detail).toMatch(/PostgreSQL \d+.*\(DATABASE_URL\): (\d+)\/\1 migrations applied/);
    expect(row('ffmpeg').data).toMatchObject({ libx264: true, concat: true });
    // ok on a supported line, WARN on an ended one (the system Node 20 of a CI machine): never a failure
    expect(row('node')).toMatchObject({
      status: expect.stringMatching(/^(ok|warn)$/),
      data: { version: process.version },
    });
    expect(report.ok).toBe(true);
    const table = formatReport(report, Infinity);
    expect(table).toMatch(/^postgres\s+ok\s+PostgreSQL/m);
    if (!row('gpu').data!.found) expect(table).toMatch(/^gpu\s+--\s+none found \(CPU: /m);
    expect(table.trim().split('\n').at(-1)).toMatch(/^all checks passed/);
  }, 180_000);
});
