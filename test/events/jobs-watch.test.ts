/** `render-farm jobs watch` as a child process, from the database and through the API's SSE. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { type TestApi, useTestApi, mintSession } from '../helpers/api.js';
import { waitFor } from '../helpers/wait-for.js';
import { markCompleted, markError, markProcessing, markProgress, renderIdOfJob } from '../helpers/render-states.js';

const BIN = path.resolve('bin/render-farm');
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

function watch(api: TestApi, args: string[]) {
  const proc = spawn('node', [BIN, 'jobs', 'watch', ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: api.t.url,
      RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => (stdout += d));
  proc.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return {
    exited,
    out: () => stdout,
    err: () => stderr,
    waitForOutput: async (re: RegExp, timeoutMs = 30_000) => {
      await waitFor(
        `${re} in the output`,
        () => {
          if (re.test(stdout)) return true;
          if (proc.exitCode !== null) throw new Error(`exited ${proc.exitCode} with no ${re} in: ${stdout} ${stderr}`);
          return false;
        },
        {
          timeoutMs,
          intervalMs: 50,
          wake: { emitter: proc.stdout, events: ['data'] },
          show: () => `${stdout} ${stderr}`,
        },
      );
    },
  };
}

describe('render-farm jobs watch', () => {
  const api = useTestApi({}, { timeoutMs: 60_000 });
  let token: string;
  let size = 256;
  const newJob = async () => {
    size += 8;
    const r = await api.call('POST', '/render-build', {
      token,
      body: { parts: glass.parts, format: 'sprite', width: size, height: size, profile: 'fast' },
    });
    return { jobId: r.json.job_id as string, renderId: await renderIdOfJob(api.t.db, r.json.job_id) };
  };

  beforeAll(async () => {
    token = await mintSession(api, { ttl_seconds: 300 });
  }, 60_000);

  it('from the database: a line per status and progress tenth, then the result URL; exit 0', async () => {
    const { jobId, renderId } = await newJob();
    const w = watch(api, [jobId]);
    await w.waitForOutput(/queued 0%/);
    await markProcessing(api.t.db, renderId);
    await w.waitForOutput(/processing 0%/);
    await markProgress(api.t.db, renderId, 0.42);
    await w.waitForOutput(/processing 42%/);
    await markCompleted(api.t.db, renderId);
    expect(await w.exited).toBe(0);
    expect(w.out().trim().split('\n').at(-1)).toMatch(
      new RegExp(`^${jobId}: completed http://\\S+/artifacts/renders/\\S+/sprite\\.webp$`),
    );
  });

  it('through the API (--api-url, --json): JSON lines; exit 1 when the job fails', async () => {
    const { jobId, renderId } = await newJob();
    const w = watch(api, [jobId, '--api-url', api.url, '--token', token, '--json']);
    await w.waitForOutput(/"event":"status"/);
    await markProcessing(api.t.db, renderId);
    await markError(api.t.db, renderId, 'WebGL is unavailable');
    expect(await w.exited).toBe(1);
    const lines = w
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual(['status', 'status', 'error']);
    expect(lines.at(-1).data).toMatchObject({ job_id: jobId, status: 'error', error: 'WebGL is unavailable' });
    expect(w.err()).toContain('the job failed');
  });

  it('an unknown job is a usage error (exit 2, one line)', async () => {
    const w = watch(api, ['00000000-0000-0000-0000-000000000000']);
    expect(await w.exited).toBe(2);
    expect(w.err().trim().split('\n')).toHaveLength(1);
    expect(w.err()).toMatch(/no job/);
  });
});
