/**
 * Part thumbnails: `pregen --thumbnails` (child process) and the `thumbnail` worker task (a batch
 * of parts per job) render
 * real product shots that GET /assets/parts/:id then serves instead of the SVG placeholder.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JobHelpers } from 'graphile-worker';
import sharp from 'sharp';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DEMO_IDS as I } from '../../src/catalog/demo-catalog.js';
import { getPartsByIds } from '../../src/catalog/parts.js';
import type { FsArtifactStore } from '../../src/storage/fs-store.js';
import { thumbnailKey } from '../../src/storage/artifact-key.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { createRenderEngine } from '../../src/render/engine.js';
import { thumbnailTask } from '../../src/jobs/tasks/thumbnail.js';
import { createLogger } from '../../src/log.js';
import { THUMBNAIL_PRIORITY } from '../../src/jobs/queue/task-map.js';
import { enqueueThumbnails } from '../../src/jobs/thumbnail-jobs.js';
import { useTestApi } from '../helpers/api.js';
import { runProcess, type ProcessResult } from '../helpers/run-process.js';

const bin = path.resolve('bin/render-farm');

function cli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return runProcess(process.execPath, [bin, ...args], { env: { ...process.env, ...env } });
}

/** A rendered thumbnail: a 256x256 WebP with an alpha channel and a transparent corner. */
async function expectThumbnailWebp(bytes: Buffer): Promise<void> {
  expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
  expect(bytes.subarray(8, 12).toString()).toBe('WEBP');
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([256, 256]);
  expect((await sharp(bytes).metadata()).hasAlpha).toBe(true);
  expect(data[(2 * info.width + 2) * 4 + 3]).toBe(0);
}

/** Share of (nearly) opaque pixels: the part itself. */
async function opaqueShare(bytes: Buffer): Promise<number> {
  const { data } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let opaque = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i]! > 200) opaque++;
  return opaque / (data.length / 4);
}

describe('part thumbnails', () => {
  const api = useTestApi();
  let cpuShot: Buffer | null = null;

  const image = async (id: string) => {
    const r = await fetch(`${api.url}/assets/parts/${id}`);
    return {
      status: r.status,
      type: r.headers.get('content-type') ?? '',
      etag: r.headers.get('etag'),
      bytes: Buffer.from(await r.arrayBuffer()),
    };
  };

  it('pregen --thumbnails replaces the placeholder of each part of a category with a rendered WebP', async () => {
    expect((await image(I.cpuR7)).type).toMatch(/^image\/svg\+xml/);
    const r = await cli(['pregen', '--thumbnails', '--category', 'CPU', '--plain'], {
      DATABASE_URL: api.t.url,
      RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
      LOG_LEVEL: 'silent',
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pregen: 6 rendered thumbnails, 0 failed/);
    const shot = await image(I.cpuR7);
    expect(shot.status).toBe(200);
    expect(shot.type).toBe('image/webp');
    await expectThumbnailWebp(shot.bytes);
    cpuShot = shot.bytes;
    expect(
      (await fetch(`${api.url}/assets/parts/${I.cpuR7}`, { headers: { 'if-none-match': shot.etag! } })).status,
    ).toBe(304);
    // other categories still have the placeholder; a second run has nothing to do
    expect((await image(I.gpuMini1Fan)).type).toMatch(/^image\/svg\+xml/);
    const again = await cli(['pregen', '--thumbnails', '--category', 'CPU', '--plain'], {
      DATABASE_URL: api.t.url,
      RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
      LOG_LEVEL: 'silent',
    });
    expect(again.stdout).toMatch(/pregen: 0 rendered thumbnails/);
  }, 180_000);

  it('catalog imports queue low-priority batch jobs of parts, which the worker task renders', async () => {
    await installQueue(api.t.db.pool);
    expect(await enqueueThumbnails(api.t.db, { categories: ['RAM'] })).toBe(9);
    // a second import queues nothing: the parts already wait in a batch
    expect(await enqueueThumbnails(api.t.db, { categories: ['RAM'] })).toBe(0);
    const jobs = await sql<{ n: string; p: number; parts: number }>`
      SELECT count(*) AS n, min(priority) AS p, sum(json_array_length(payload->'partIds'))::int AS parts
        FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'thumbnail')`.execute(
      api.t.db.db,
    );
    expect(Number(jobs.rows[0]!.n)).toBe(1);
    expect(jobs.rows[0]!.parts).toBe(9);
    expect(jobs.rows[0]!.p).toBe(THUMBNAIL_PRIORITY);

    const engine = await createRenderEngine(api.t.cfg);
    try {
      const task = thumbnailTask({
        db: api.t.db,
        store: api.server.ctx.store,
        engine,
        log: createLogger({ logLevel: 'silent' }),
        timeoutMs: 60_000,
      });
      const helpers = { abortSignal: new AbortController().signal } as unknown as JobHelpers;
      await task({ partIds: [I.ramRgb2x16, I.ramRed2x8, 'gonepart1'] }, helpers);
      // a job queued before batches (one part) still runs
      await task({ partId: I.ramTall4x16 }, helpers);
    } finally {
      await engine.close();
    }
    for (const id of [I.ramRgb2x16, I.ramRed2x8, I.ramTall4x16]) {
      const shot = await image(id);
      expect(shot.type, id).toBe('image/webp');
      await expectThumbnailWebp(shot.bytes);
    }
  }, 120_000);

  it('a part that fails in a batch is skipped, then retried alone until it works or its attempts run out', async () => {
    await installQueue(api.t.db.pool);
    const store = api.server.ctx.store;
    expect(store.kind).toBe('fs');
    const [ok1, blocked, ok2] = [I.ramLow2x16, I.ramWhiteRgb2x16, I.ramSingle1x8];
    const [row] = await getPartsByIds(api.t.db, [blocked]);
    // a real failure: a file where the part's thumbnail folder must go, so storing it fails
    const dir = path.dirname((store as FsArtifactStore).pathOf(thumbnailKey(blocked, row!.version)));
    await fs.mkdir(path.dirname(dir), { recursive: true });
    await fs.writeFile(dir, 'in the way');
    const isolatedJobs = async () =>
      (
        await sql<{ payload: { partIds: string[]; isolated?: boolean } }>`
          SELECT payload FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'thumbnail')
             AND (payload->>'isolated')::boolean`.execute(api.t.db.db)
      ).rows.map((r) => r.payload.partIds);
    const engine = await createRenderEngine(api.t.cfg);
    try {
      const task = thumbnailTask({
        db: api.t.db,
        store,
        engine,
        log: createLogger({ logLevel: 'silent' }),
        timeoutMs: 60_000,
      });
      const helpers = { abortSignal: new AbortController().signal } as unknown as JobHelpers;
      // the batch completes; the failed part waits in a job of its own
      await task({ partIds: [ok1, blocked, ok2] }, helpers);
      expect((await image(ok1)).type).toBe('image/webp');
      expect((await image(ok2)).type).toBe('image/webp');
      expect((await image(blocked)).type).toMatch(/^image\/svg\+xml/);
      expect(await isolatedJobs()).toEqual([[blocked]]);
      // alone, it fails the job (graphile retries it with backoff, then keeps it as failed)
      await expect(task({ partIds: [blocked], isolated: true }, helpers)).rejects.toThrow(
        new RegExp(`1 of 1 thumbnails failed: ${blocked}`),
      );
      // once the cause is gone, the retry draws it
      await fs.rm(dir);
      await task({ partIds: [blocked], isolated: true }, helpers);
      expect((await image(blocked)).type).toBe('image/webp');
    } finally {
      await engine.close();
    }
  }, 120_000);

  // a lone part must be framed on the turntable (its centring offset scales with it)
  it('the shot shows the part', async () => {
    expect(cpuShot).not.toBeNull();
    expect(await opaqueShare(cpuShot!)).toBeGreaterThan(0.02);
  });
});
