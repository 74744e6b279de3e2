/**
 * `up` (and `serve`) with the API port taken fail at once, before any database work
 * (docs/getting-started.md, "Using the CLI"): `up` used to initialise an embedded cluster in the data dir, migrate and seed it,
 * and only then fail to listen. One line names the port, what holds it and how to pick another.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/free-port.js';

const bin = path.resolve('bin/render-farm');

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

describe('up and serve with the API port taken', () => {
  let tmp: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-up-port-'));
    // reachable by the embedded PostgreSQL's own user when run as root: the failure looked for is the port's, not the directory's
    await fs.chmod(tmp, 0o755);
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k, v]) => v !== undefined && !k.startsWith('RENDER_FARM_') && k !== 'DATABASE_URL' && k !== 'PORT',
      ),
    );
    // were a PostgreSQL started, it would not meet another one
    env = {
      ...(clean as Record<string, string>),
      RENDER_FARM_PG_PORT: String(await freePort()),
      CHROMIUM_PATH: '/nonexistent/chromium',
    };
  });
  afterAll(async () => {
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const cli = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) => {
      const t0 = Date.now();
      execFile(
        process.execPath,
        [bin, ...args],
        { env, timeout: 90_000, killSignal: 'SIGKILL' },
        (err, _stdout, stderr) => {
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr, ms: Date.now() - t0 });
        },
      );
    });

  it('another program on the port: one line naming it and how to pick another, before the data dir is made', async () => {
    // reads what it is sent: a socket never read never sees the client's close, and close() below would wait for it forever
    const taken = net.createServer((socket) => socket.resume().end());
    const port = await listen(taken);
    try {
      for (const cmd of ['up', 'serve']) {
        const dataDir = path.join(tmp, `${cmd}-data`);
        const r = await cli([cmd, '--port', String(port), '--data-dir', dataDir]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr.trim()).toBe(
          `render-farm: port ${port} on 127.0.0.1 is in use by another program: pick another with --port N or PORT=N (--port 0 takes any free one)`,
        );
        // no cluster was initialised (that alone took seconds): nothing was created at all
        expect(existsSync(dataDir), `${cmd} created ${dataDir}`).toBe(false);
        // start-up and the one-second look at who holds the port; a cluster's initdb takes far longer
        expect(r.ms).toBeLessThan(15_000);
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);

  it('a render-farm already up there is named as such', async () => {
    const farm = http.createServer((_req, res) =>
      res
        .setHeader('content-type', 'application/json')
        .end(JSON.stringify({ status: 'ok', version: '9.9.9', queue: { queued: 0 } })),
    );
    const port = await listen(farm);
    try {
      const dataDir = path.join(tmp, 'second-up');
      const r = await cli(['up', '--no-worker', '--port', String(port), '--data-dir', dataDir]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr.trim()).toBe(
        `render-farm: port ${port} on 127.0.0.1 is in use by a running render-farm 9.9.9 (another "up" or "serve"): pick another with --port N or PORT=N (--port 0 takes any free one)`,
      );
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      farm.closeAllConnections();
      await new Promise((resolve) => farm.close(resolve));
    }
  }, 60_000);
});
