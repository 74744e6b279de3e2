/**
 * The job farm end to end on real components: the API on embedded Postgres, an in-process
 * graphile-worker with a real warm Chromium, ffmpeg and sharp, the filesystem artifact store.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { startWorker, type RunningWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/log.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { probeVideo } from '../helpers/media.js';
import { waitFor } from '../helpers/wait-for.js';

const SMALL = { format: 'sprite', width: 256, height: 256, profile: 'fast' } as const;

describe('job farm end to end', () => {
  let api: TestApi;
  let token: string;
  let engine: RenderEngine;
  let worker: RunningWorker | null = null;
  let failNext = 0;
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  const stated = DEMO_BUILDS.find((b) => b.interactiveState)!;

  const start = async () => {
    // a real engine; failNext > 0 makes the next renders fail like a browser crash would
    const flaky: RenderEngine = {
      ...engine,
      close: async () => {},
      render: async (req) => {
        if (failNext > 0) {
          failNext--;
          throw new Error('injected transient failure: browser crashed');
        }
        return engine.render(req);
      },
    };
    worker = await startWorker(api.t.cfg, api.t.db, api.server.ctx.store, createLogger({ logLevel: 'silent' }), {
      concurrency: 1,
      renderTimeoutMs: 120_000,
      drainTimeoutMs: 10_000,
      engine: flaky,
    });
  };
  const submit = (body: unknown, path = '/render-build') => api.call('POST', path, { token, body });
  /** The job object once final, re-read whenever the worker finishes a queue job. */
  const poll = (jobId: string) =>
    waitFor(
      `job ${jobId} to finish`,
      async () => {
        const r = await api.call('GET', `/render-build/${jobId}`, { token });
        return r.json.status === 'completed' || r.json.status === 'error' ? r.json : null;
      },
      { timeoutMs: 120_000, intervalMs: 2_000, wake: { emitter: worker!.events, events: ['job:complete'] } },
    );
  const download = async (url: string) => {
    const r = await fetch(url);
    return {
      status: r.status,
      type: r.headers.get('content-type'),
      bytes: Buffer.from(await r.arrayBuffer()),
      headers: r.headers,
    };
  };
  const renderRow = (id: string) =>
    api.t.db.db
      .selectFrom('jobs')
      .innerJoin('renders', 'renders.id', 'jobs.render_id')
      .selectAll('renders')
      .where('jobs.id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    api = await startTestApi();
    token = (
      await api.call('POST', '/auth/render-session', {
        token: api.key,
        body: { scopes: ['data:read', 'render:submit', 'render:status'], ttl_seconds: 300 },
      })
    ).json.session_token;
    engine = await createRenderEngine(api.t.cfg);
    await start();
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await engine?.close();
    await api?.close();
  });

  it('renders a sprite: submit -> poll -> completed -> a real 12x6 WebP sheet and a screenshot', async () => {
    const s = await submit({ parts: glass.parts, ...SMALL });
    expect(s.status).toBe(202);
    const job = await poll(s.json.job_id);
    expect(job).toMatchObject({
      job_id: s.json.job_id,
      status: 'completed',
      job_type: 'render',
      video_url: null,
      progress: 1,
    });
    expect(job.url).toBe(job.sprite_url);
    expect(job.sprite).toEqual({ columns: 12, rows: 6, frames: 72, frame_width: 256, frame_height: 256 });
    expect(Date.parse(job.end_time)).toBeGreaterThan(Date.parse(job.created_at));
    const sheet = await download(job.sprite_url);
    expect(sheet.status).toBe(200);
    expect(sheet.type).toBe('image/webp');
    expect(sheet.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(sheet.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 3072, 1536]);
    // frames differ by rotation: the first two cells are not the same picture
    const cell = (i: number) =>
      sharp(sheet.bytes)
        .extract({ left: i * 256, top: 0, width: 256, height: 256 })
        .raw()
        .toBuffer();
    const [a, b] = await Promise.all([cell(0), cell(3)]);
    expect(a.equals(b)).toBe(false);
    const shot = await download(job.screenshot_url);
    expect((await sharp(shot.bytes).metadata()).width).toBe(256);
    // a Range request on the artifact works (seeking)
    const part = await fetch(job.sprite_url, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    const again = await submit({ parts: glass.parts, ...SMALL });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({
      job_id: s.json.job_id,
      status: 'completed',
      cached: true,
      sprite_url: job.sprite_url,
      url: job.sprite_url,
    });
  });

  it('renders a video: H.264 yuv420p, 120 frames, 4 s, faststart', async () => {
    const s = await submit({ parts: glass.parts, format: 'video', width: 256, height: 256, profile: 'fast' });
    const job = await poll(s.json.job_id);
    expect(job.status).toBe('completed');
    expect(job.url).toBe(job.video_url);
    expect(job.sprite_url).toBeNull();
    const video = await download(job.video_url);
    expect(video.type).toBe('video/mp4');
    const file = path.join(os.tmpdir(), `rf-e2e-${Date.now()}.mp4`);
    await fs.writeFile(file, video.bytes);
    try {
      const p = await probeVideo(file);
      expect(p).toMatchObject({
        codec: 'h264',
        pixFmt: 'yuv420p',
        width: 256,
        height: 256,
        frames: 120,
        faststart: true,
      });
      expect(p.duration).toBeCloseTo(4, 1);
    } finally {
      await fs.rm(file, { force: true });
    }
  });

  it('renders a saved build by share code with its interactive state, and the state changes the pixels', async () => {
    const byCode = await submit({ shareCode: stated.shareCode, ...SMALL }, '/render-by-share-code');
    expect(byCode.json.share_code).toBe(stated.shareCode);
    const withState = await poll(byCode.json.job_id);
    expect(withState).toMatchObject({ status: 'completed', share_code: stated.shareCode });
    const row = await renderRow(byCode.json.job_id);
    expect((row.request as { state: unknown }).state).toEqual(stated.interactiveState);
    const plain = await poll((await submit({ parts: stated.parts, ...SMALL })).json.job_id);
    const [x, y] = await Promise.all([download(withState.screenshot_url), download(plain.screenshot_url)]);
    const [rx, ry] = await Promise.all([sharp(x.bytes).raw().toBuffer(), sharp(y.bytes).raw().toBuffer()]);
    expect(rx.equals(ry)).toBe(false);
  });

  it('renders 20 concurrent identical submissions once', async () => {
    const body = { parts: glass.parts, ...SMALL, cameraZoom: 1.37 };
    const results = await Promise.all(Array.from({ length: 20 }, () => submit(body)));
    const ids = new Set(results.map((r) => r.json.job_id));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    const job = await poll([...ids][0]!);
    expect(job.status).toBe('completed');
    const row = await renderRow(job.job_id);
    expect(row.attempts).toBe(1);
    // graphile removes its job just after the task wrote the render: wait for it, not a sleep
    await waitFor(
      'the queue to empty',
      async () => (await api.t.db.pool.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs`)).rows[0].n === 0,
      {
        timeoutMs: 10_000,
        wake: { emitter: worker!.events, events: ['job:complete'] },
      },
    );
  });

  it('retries a transient failure and completes', async () => {
    failNext = 1;
    const s = await submit({ parts: glass.parts, ...SMALL, cameraZoom: 1.55 });
    const job = await poll(s.json.job_id);
    expect(job.status).toBe('completed');
    expect(failNext).toBe(0);
    expect((await renderRow(s.json.job_id)).attempts).toBe(2);
  });

  it('fails at once on bad data, with a human error and end_time', async () => {
    await worker!.stop();
    const gpu = glass.parts.GPU![0]!;
    const copy = await api.t.db.db.selectFrom('parts').selectAll().where('id', '=', gpu).executeTakeFirstOrThrow();
    await api.t.db.db
      .insertInto('parts')
      .values({ id: 'doomedgpu1', category: 'GPU', name: 'Doomed GPU', specs: JSON.stringify(copy.specs) })
      .execute();
    const s = await submit({ parts: { ...glass.parts, GPU: ['doomedgpu1'] }, ...SMALL });
    expect(s.status).toBe(202);
    await api.t.db.db.deleteFrom('parts').where('id', '=', 'doomedgpu1').execute();
    await start();
    const job = await poll(s.json.job_id);
    expect(job.status).toBe('error');
    expect(job.error).toMatch(/doomedgpu1/);
    expect(job.end_time).toEqual(expect.any(String));
    expect(job.url).toBeNull();
    expect((await renderRow(s.json.job_id)).attempts).toBe(1);
  });

  it('reports the live worker and its GL backend in /health', async () => {
    const h = await api.call('GET', '/health');
    expect(h.json.workers).toBeGreaterThanOrEqual(1);
    expect(h.json.renderers[0]).toMatchObject({
      backend: expect.stringMatching(/gpu|egl|swiftshader/),
      glRenderer: expect.any(String),
    });
  });
});
