/**
 * One engine policy: the CLI's `render`, a worker and pregen draw with the same WebGL backend
 * on this machine (all three go through render/engine.ts). Real Chromium, a real worker on a
 * real database, the CLI as a child process.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS as I } from '../../src/catalog/demo-catalog.js';
import { startWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { pregenCommand } from '../../src/pregen/command.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { useTestDb } from '../helpers/db.js';

const run = promisify(execFile);
const SMALL = ['--format', 'sprite', '--profile', 'fast', '--width', '256', '--height', '256'];

describe('WebGL backend', () => {
  const t = useTestDb({ seedDemo: true });
  let out: string;

  beforeAll(async () => {
    out = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-gl-'));
  });
  afterAll(async () => {
    await fs.rm(out, { recursive: true, force: true });
  });

  it('is the same for the CLI, a worker and pregen', async () => {
    const worker = await startWorker(
      t.cfg,
      t.db,
      await openArtifactStore(t.cfg),
      createLogger({ logLevel: 'silent' }),
      {
        concurrency: 1,
        renderTimeoutMs: 60_000,
        drainTimeoutMs: 1_000,
      },
    );
    const forWorker = (await worker.engine.info()).backend;
    await worker.stop();

    const written: string[] = [];
    const code = await pregenCommand({
      cfg: t.cfg,
      inputs: { matrix: `PCCase=${I.caseCubeItx}` },
      variants: { base: {}, formats: ['sprite'], profiles: ['fast'], sizes: [{ width: 256, height: 256 }] },
      concurrency: 1,
      farm: false,
      dryRun: false,
      output: 'json',
      write: (text) => written.push(text),
      signal: new AbortController().signal,
    });
    expect(code, written.join('')).toBe(0);
    const forPregen = JSON.parse(written.join('')).renderer.backend;

    // the CLI with the same configuration, from the environment, in its own process
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
      LOG_LEVEL: 'silent',
    };
    const cli = await run(
      process.execPath,
      [
        path.resolve('bin/render-farm'),
        'render',
        '--share-code',
        'DEMO-ITX',
        ...SMALL,
        '--no-screenshot',
        '--out',
        out,
        '--json',
      ],
      { env },
    );
    const forCli = JSON.parse(cli.stdout).backend;

    expect(['gpu', 'egl', 'swiftshader']).toContain(forWorker);
    expect({ cli: forCli, pregen: forPregen }).toEqual({ cli: forWorker, pregen: forWorker });
  }, 180_000);
});
