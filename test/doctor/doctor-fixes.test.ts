/**
 * `render-farm doctor`: every WARN and FAIL row says how to fix it. Each check is driven into
 * its warning or failure by a real condition (a wrong tool path, a taken port, a database
 * that does not answer, an unusable directory, a bad STORAGE_URL) through the library.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { runCheck, type CheckResult } from '../../src/doctor/check.js';
import { checkDatabase } from '../../src/doctor/database-check.js';
import { CHECK_LIMITS, runDoctor } from '../../src/doctor/run-doctor.js';

function expectFixOnEveryProblem(checks: CheckResult[]) {
  for (const c of checks)
    if (c.status === 'warn' || c.status === 'fail')
      expect(c.fix, `${c.id} ${c.status} (${c.detail}) has no fix`).toMatch(/\S{3}/);
}

const open = new Map<net.Server, Set<net.Socket>>();
function listen(srv: net.Server): Promise<number> {
  const sockets = new Set<net.Socket>();
  open.set(srv, sockets);
  srv.on('connection', (s) => sockets.add(s));
  return new Promise((r) => srv.listen(0, '127.0.0.1', () => r((srv.address() as net.AddressInfo).port)));
}
/** closes `srv` and the connections the checks left open (a keep-alive fetch would hold close() up) */
function close(srv: net.Server): Promise<void> {
  for (const s of open.get(srv) ?? []) s.destroy();
  return new Promise((r) => srv.close(() => r()));
}

describe('doctor: a fix under every WARN and FAIL', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-doctor-fixes-'));
  });
  afterAll(async () => fs.rm(tmp, { recursive: true, force: true }));

  it('fails chromium/webgl, ffmpeg, ffprobe, data-dir, ports and postgres, each with its fix', async () => {
    const taken = net.createServer();
    const port = await listen(taken);
    // a data dir that is a file; the artifact store elsewhere so it runs too
    const file = path.join(tmp, 'not-a-dir');
    await fs.writeFile(file, 'x');
    const cfg = loadConfig(
      {
        dataDir: file,
        port,
        databaseUrl: 'postgres://nobody:secret@127.0.0.1:1/none',
        storageUrl: 'file:///proc/render-farm-artifacts',
        // a program that is not Chromium: found, but the browser cannot start
        chromiumPath: '/bin/false',
        // an "ffmpeg" without libx264 or the concat demuxer
        ffmpegPath: '/bin/true',
        // an "ffprobe" that exits 1: the check throws
        ffprobePath: '/bin/false',
      },
      { PATH: process.env.PATH },
    );
    try {
      const report = await runDoctor(cfg);
      const row = (id: string) => report.checks.find((c) => c.id === id)!;
      for (const id of ['webgl', 'ffmpeg', 'ffprobe', 'data-dir', 'ports', 'postgres', 'artifacts'])
        expect(row(id).status, `${id}: ${row(id).detail}`).toBe('fail');
      expect(row('webcodecs').status).toBe('skip');
      expect(row('gpu').status).toBe('skip');
      expect(row('ffmpeg').fix).toMatch(/libx264/);
      expect(row('ffprobe').fix).toBe(CHECK_LIMITS.ffprobe.fix);
      expect(row('data-dir').detail).toMatch(/not a directory/);
      expect(row('ports').fix).toMatch(/--port/);
      expect(row('postgres').fix).toMatch(/DATABASE_URL/);
      expect(row('artifacts').detail).toMatch(/\/proc\/render-farm-artifacts/);
      expectFixOnEveryProblem(report.checks);
    } finally {
      await close(taken);
    }
  }, 120_000);

  it('fails chromium when CHROMIUM_PATH is wrong, and the embedded PostgreSQL port when another program has it', async () => {
    const taken = net.createServer();
    const pgPort = await listen(taken);
    const cfg = loadConfig(
      {
        dataDir: tmp,
        port: 0,
        embeddedPgPort: pgPort,
        chromiumPath: '/nonexistent/chromium',
        storageUrl: 's3://bucket/a//b',
      },
      { PATH: process.env.PATH },
    );
    try {
      const { checkChromium } = await import('../../src/doctor/tools-check.js');
      const { checkPorts } = await import('../../src/doctor/ports-check.js');
      const { checkStorage } = await import('../../src/doctor/storage-check.js');
      const rows = [
        await runCheck('chromium', () => checkChromium(cfg), CHECK_LIMITS.chromium),
        await runCheck('ports', () => checkPorts(cfg), CHECK_LIMITS.ports),
        // a prefix the key rules refuse: it threw before the store was tried, a row without a fix
        await runCheck('artifacts', () => checkStorage(cfg), CHECK_LIMITS.artifacts),
      ];
      expect(rows.map((r) => r.status)).toEqual(['fail', 'fail', 'fail']);
      expect(rows[1]!.detail).toMatch(`embedded PostgreSQL port ${pgPort} is taken by another program`);
      expect(rows[2]!.detail).toMatch(/STORAGE_URL s3:\/\/bucket\/a\/\/b: prefix/);
      expectFixOnEveryProblem(rows);
    } finally {
      await close(taken);
    }
  });

  it('warns for a port held by a running render-farm and for pending migrations, with fixes', async () => {
    const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    const name = `rf_t_${randomBytes(5).toString('hex')}`;
    // an empty database: every migration pending
    await admin.query(`CREATE DATABASE ${name}`);
    const farm = http.createServer((_req, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ version: '0.0.1', queue: { queued: 0 } })),
    );
    const port = await listen(farm);
    try {
      const cfg = loadConfig(
        { dataDir: tmp, port, databaseUrl: inject('pgAdminUrl').replace(/\/postgres$/, `/${name}`) },
        { PATH: process.env.PATH },
      );
      const { checkPorts } = await import('../../src/doctor/ports-check.js');
      const rows = [
        await runCheck('ports', () => checkPorts(cfg), CHECK_LIMITS.ports),
        await runCheck('postgres', () => checkDatabase(cfg), CHECK_LIMITS.postgres),
      ];
      expect(rows.map((r) => r.status)).toEqual(['warn', 'warn']);
      expect(rows[0]!.detail).toMatch(/used by a running render-farm 0\.0\.1/);
      expect(rows[1]!.detail).toMatch(/migrations pending/);
      expectFixOnEveryProblem(rows);
    } finally {
      await close(farm);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('a check with no answer in its time limit is a FAIL row with the fix, in that time', async () => {
    // a "PostgreSQL" that accepts connections and never answers
    const mute = net.createServer();
    const port = await listen(mute);
    try {
      const cfg = loadConfig({ dataDir: tmp, databaseUrl: `postgres://u:p@127.0.0.1:${port}/db` }, {});
      const row = await runCheck('postgres', () => checkDatabase(cfg), { ...CHECK_LIMITS.postgres, timeoutMs: 1_000 });
      expect(row).toMatchObject({ status: 'fail', detail: 'no answer within 1 s', fix: CHECK_LIMITS.postgres.fix });
      expect(row.ms).toBeLessThan(5_000);
    } finally {
      await close(mute);
    }
  });
});
