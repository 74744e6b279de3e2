/**
 * The curl walkthrough, the committed docs/walkthrough.sh run as it is (bash, curl, node) against
 * a real API and worker: with the right key it renders and downloads the sprite; with a wrong key
 * it stops at the first step and shows the server's error (it used to carry on with
 * TOKEN=undefined). docs/getting-started.md shows the file's body: the block must be the same text.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { runProcess, type ProcessResult } from '../helpers/run-process.js';

const SCRIPT = path.resolve('docs/walkthrough.sh');
const MARKER = '# --- docs block ---\n';
const PAGE = 'docs/getting-started.md';

/** The first sh block after the walkthrough heading of docs/getting-started.md. */
async function pageBlock(): Promise<string> {
  const page = await fs.readFile(path.resolve(PAGE), 'utf8');
  const section = page.slice(page.indexOf('## Walkthrough with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error(`${PAGE}: no sh block under "## Walkthrough with curl"`);
  return block[1]!;
}

function runBash(file: string, cwd: string, env: Record<string, string>): Promise<ProcessResult> {
  // PS1 unset: what `bash walkthrough.sh` sees
  const { PS1: _ps1, ...rest } = process.env;
  return runProcess('bash', [file], { cwd, env: { ...rest, ...env } });
}

describe('the walkthrough with curl (docs/getting-started.md)', () => {
  let api: TestApi;
  let engine: RenderEngine;
  let worker: RunningWorker;
  let dir: string;
  let script: string;

  beforeAll(async () => {
    api = await startTestApi();
    engine = await createRenderEngine(api.t.cfg);
    worker = await startWorker(api.t.cfg, api.t.db, api.server.ctx.store, createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
      engine,
    });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-walkthrough-'));
    script = SCRIPT;
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await engine?.close();
    await api?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('docs/getting-started.md shows docs/walkthrough.sh as it is (the body below its marker line)', async () => {
    const file = await fs.readFile(SCRIPT, 'utf8');
    expect(file.indexOf(MARKER)).toBeGreaterThan(0);
    expect(await pageBlock()).toBe(file.slice(file.indexOf(MARKER) + MARKER.length));
    const page = await fs.readFile(path.resolve(PAGE), 'utf8');
    expect(page).toContain('bash docs/walkthrough.sh');
    expect(page).toContain('.render-farm/demo-api-key');
    // the README's front door sends readers there
    expect(await fs.readFile('README.md', 'utf8')).toContain('](docs/getting-started.md#walkthrough-with-curl)');
  });

  it("with a wrong key stops at the first step and prints the server's error", async () => {
    const cwd = await fs.mkdtemp(path.join(dir, 'wrong-'));
    const r = await runBash(script, cwd, { BASE: api.url, KEY: 'rfk_prod_' + 'x'.repeat(40) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('POST /auth/render-session failed');
    expect(r.stderr).toContain('"error":"invalid_credentials"');
    expect(r.stderr).toContain('unknown API key');
    // nothing after the failed step ran
    expect(r.stdout + r.stderr).not.toContain('undefined');
    expect(r.stdout).toBe('');
    expect(await fs.readdir(cwd)).toEqual([]);
  });

  it('with the key renders the saved build and downloads the sprite sheet', async () => {
    const cwd = await fs.mkdtemp(path.join(dir, 'right-'));
    const r = await runBash(script, cwd, { BASE: api.url, KEY: api.key });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"shareCode":"DEMO-GLASS"');
    expect(r.stdout).toMatch(/\ncompleted\n/);
    const sheet = await sharp(path.join(cwd, 'sprite.webp')).metadata();
    expect(sheet).toMatchObject({ format: 'webp', width: 12 * 256, height: 6 * 256 });
  }, 120_000);
});
