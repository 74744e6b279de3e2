/**
 * The thumbnail backlog is visible: /health and /metrics count it by kind (in parts, a job being
 * a batch of parts), `jobs list --kind thumbnails` lists it part by part, and `catalog import --no-thumbnails` queues none (the CLI runs as a child
 * process against this file's database). Thumbnails are queued below every render priority.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_RENDER_PRIORITY } from '../../src/jobs/fair-priority.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { THUMBNAIL_BATCH_SIZE, THUMBNAIL_PRIORITY } from '../../src/jobs/queue/task-map.js';
import { enqueueThumbnails, listThumbnailJobs } from '../../src/jobs/thumbnail-jobs.js';
import type { Category } from '../../src/model/part.js';
import { useTestApi } from '../helpers/api.js';
import { FIXTURE_DIR } from '../helpers/opendb-data.js';
import { runProcess } from '../helpers/run-process.js';

const bin = path.resolve('bin/render-farm');
// categories whose fixture parts make a backlog of more than one thumbnail job
const BACKLOG: readonly Category[] = ['RAM', 'CPU', 'GPU', 'PCCase', 'CaseFan', 'Motherboard'];

describe('thumbnail jobs are visible', () => {
  const api = useTestApi();
  const cli = (args: string[]) =>
    runProcess(process.execPath, [bin, ...args], {
      env: { ...process.env, DATABASE_URL: api.t.url, RENDER_FARM_DATA_DIR: api.t.cfg.dataDir, LOG_LEVEL: 'silent' },
    });
  const thumbnailJobs = async () =>
    Number(
      (await api.t.db.pool.query(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'thumbnail'`))
        .rows[0].n,
    );
  // parts waiting in thumbnail jobs (each job is a batch)
  const queuedParts = async () =>
    Number(
      (
        await api.t.db.pool.query(
          `SELECT COALESCE(sum(json_array_length(payload->'partIds')), 0) AS n FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'thumbnail')`,
        )
      ).rows[0].n,
    );

  it('queues thumbnails below every render', () => {
    expect(THUMBNAIL_PRIORITY).toBeGreaterThan(MAX_RENDER_PRIORITY);
  });

  it('catalog import --no-thumbnails queues none', async () => {
    const skip = await cli(['catalog', 'import', FIXTURE_DIR, '--no-thumbnails', '--json']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout).thumbnailsQueued).toBe(0);
    await installQueue(api.t.db.pool);
    expect(await thumbnailJobs()).toBe(0);
    // the backlog for the next test, as an import without the flag queues it: more parts than
    // one job takes (THUMBNAIL_BATCH_SIZE a job)
    const queued = await enqueueThumbnails(api.t.db, { categories: BACKLOG });
    expect(queued).toBeGreaterThan(THUMBNAIL_BATCH_SIZE);
    expect(await queuedParts()).toBe(queued);
    expect(await thumbnailJobs()).toBe(Math.ceil(queued / THUMBNAIL_BATCH_SIZE));
    // queued again (a re-import): parts already waiting are not queued twice
    expect(await enqueueThumbnails(api.t.db, { categories: BACKLOG })).toBe(0);
    expect(await queuedParts()).toBe(queued);
  }, 120_000);

  it('/health, /metrics and jobs list --kind thumbnails show the backlog in parts', async () => {
    const n = await queuedParts();
    expect(n).toBeGreaterThan(await thumbnailJobs());
    const health = await api.call('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.json.queue.by_kind.thumbnail).toEqual({ queued: n, processing: 0, failed: 0 });
    expect(health.json.queue.by_kind.render).toEqual({
      queued: health.json.queue.queued,
      processing: health.json.queue.processing,
    });
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).toContain(`render_farm_queue_depth{kind="thumbnail"} ${n}`);

    const list = await listThumbnailJobs(api.t.db, { limit: 500 });
    expect(list).toHaveLength(n);
    expect(list.every((j) => j.state === 'queued' && new Set<string | null>(BACKLOG).has(j.category) && j.part)).toBe(
      true,
    );
    expect(new Set(list.map((j) => j.partId)).size).toBe(n);
    expect(new Set(list.map((j) => j.jobId)).size).toBe(await thumbnailJobs());

    const out = await cli(['jobs', 'list', '--kind', 'thumbnails']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(
      `thumbnails: ${n} queued, 0 processing, 0 failed (parts; a job renders a batch of up to ${THUMBNAIL_BATCH_SIZE})`,
    );
    expect(out.stdout).toContain(list[0]!.partId);
    const bad = await cli(['jobs', 'list', '--kind', 'toasters']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kind must be one of renders, thumbnails');
  }, 120_000);
});
