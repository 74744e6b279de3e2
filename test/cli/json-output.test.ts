/**
 * `--json` output larger than a pipe's buffer reaches the reader whole (src/cli/flush-output.ts):
 * the CLI exited before stdout drained, so `jobs list --json --limit 100 | wc -c` gave 65536.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

const bin = path.resolve('bin/render-farm');
const JOBS = 100;

describe('CLI --json through a pipe', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
    const token = (
      await api.call('POST', '/auth/render-session', { token: api.key, body: { scopes: ['render:submit'] } })
    ).json.session_token;
    // 100 distinct renders (no worker runs: they stay queued)
    for (let i = 0; i < JOBS; i++) {
      const r = await api.call('POST', '/render-build', {
        token,
        body: { parts: DEMO_BUILDS[0]!.parts, format: 'sprite', width: 256 + i, height: 256 },
      });
      expect(r.status).toBe(202);
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('jobs list --json --limit 100 arrives complete and parses', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RENDER_FARM_')));
    const child = spawn(process.execPath, [bin, 'jobs', 'list', '--json', '--limit', String(JOBS)], {
      env: { ...env, DATABASE_URL: api.t.url, RENDER_FARM_DATA_DIR: api.t.cfg.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const out = Buffer.concat(chunks).toString('utf8');
    expect(code, stderr).toBe(0);
    // well past one pipe buffer, so a cut would show
    expect(out.length).toBeGreaterThan(2 * 65536);
    const list = JSON.parse(out) as { jobId: string }[];
    expect(list).toHaveLength(JOBS);
    expect(new Set(list.map((j) => j.jobId)).size).toBe(JOBS);
  }, 60_000);
});
