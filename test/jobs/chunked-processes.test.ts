/**
 * Split renders across real worker processes (`render-farm worker`) on one Postgres queue: two
 * processes share one render's chunks, and a SIGKILLed worker loses only the chunk it was
 * rendering (done chunks are kept, the render is not split again, the lost chunk is rendered
 * by the survivor after the sweeper frees it).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { renderChunks } from '../../src/jobs/chunk-lifecycle.js';
import { submitRender } from '../../src/jobs/submit.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { useQueueDb } from '../helpers/queue-db.js';
import { probeVideo } from '../helpers/media.js';
import { waitFor } from '../helpers/wait-for.js';
import { spawnWorker, type WorkerChild } from '../helpers/worker-process.js';

const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

/** the sweeper's dead-worker bound for this file's workers (default 30 s): a killed worker is waited out sooner */
const DEAD_AFTER_S = 15;

describe('split renders across worker processes', () => {
  const t = useQueueDb();
  const children: WorkerChild[] = [];
  const spawn = async () => {
    const c = await spawnWorker(t.url, t.cfg.dataDir, [], {
      RENDER_FARM_CHUNK_SECONDS: '0.01',
      RENDER_FARM_WORKER_DEAD_AFTER: String(DEAD_AFTER_S),
    });
    children.push(c);
    return c;
  };
  const pidOf = (workerId: string | null) => Number(workerId?.split('-').at(-2));

  afterEach(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    children.length = 0;
  });

  it('two processes share the chunks; a SIGKILL during a chunk loses only that chunk', async () => {
    const [a, b] = await Promise.all([spawn(), spawn()]);
    const customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    const s = await submitRender(t.db, {
      customerId,
      parts: glass.parts,
      state: null,
      options: { format: 'video', width: 384, height: 384, profile: 'cinematic', cameraZoom: 1.17 },
    });
    const renderId = s.render.id;
    // a moment with a finished chunk and another one part-way through
    const moment = await waitFor(
      'one chunk done and another under way',
      async () => {
        const cs = await renderChunks(t.db.db, renderId);
        const running = cs.find((c) => c.status === 'processing' && c.frames_done > 0);
        return cs.some((c) => c.status === 'done') && running ? { cs, running } : null;
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
    const plan = moment.running.plan;
    const victim = [a, b].find((c) => c.pid === pidOf(moment.running.worker_id))!;
    expect(victim).toBeDefined();
    const survivor = victim === a ? b : a;
    victim.proc.kill('SIGKILL');
    const doneBefore = (await renderChunks(t.db.db, renderId)).filter((c) => c.status === 'done');

    // the sweeper frees a worker silent for DEAD_AFTER_S; the bound leaves room for a loaded machine
    const done = await waitFor(
      'the render to complete',
      async () => {
        const r = await t.db.db.selectFrom('renders').selectAll().where('id', '=', renderId).executeTakeFirstOrThrow();
        if (r.status === 'error') throw new Error(r.error ?? 'render failed');
        return r.status === 'completed' ? r : null;
      },
      { timeoutMs: 180_000, intervalMs: 500 },
    );
    const after = await renderChunks(t.db.db, renderId);
    // not split again, and nothing rendered before the kill was rendered again
    expect(done.chunk_plan).toBe(plan);
    expect(done.attempts).toBe(1);
    for (const c of doneBefore) {
      const now = after.find((x) => x.idx === c.idx)!;
      expect([now.attempts, now.worker_id, now.render_ms]).toEqual([c.attempts, c.worker_id, c.render_ms]);
    }
    const lost = after.find((c) => c.idx === moment.running.idx)!;
    expect(lost.attempts).toBe(2);
    expect(pidOf(lost.worker_id)).toBe(survivor.pid);
    // both processes were rendering chunks of this one render at the moment of the kill
    expect(new Set(moment.cs.filter((c) => c.worker_id).map((c) => pidOf(c.worker_id)))).toEqual(
      new Set([a.pid, b.pid]),
    );

    const store = await openArtifactStore(t.cfg);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'rf-chunked-')), 'v.mp4');
    const out: Buffer[] = [];
    for await (const c of (await store.read(
      (done.artifacts as Record<string, string>).video!,
    )) as AsyncIterable<Buffer>)
      out.push(c);
    await fs.writeFile(file, Buffer.concat(out));
    const probed = await probeVideo(file);
    expect([probed.frames, probed.width, probed.height, probed.faststart]).toEqual([120, 384, 384, true]);
    expect(probed.duration).toBeCloseTo(4, 1);
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  }, 300_000);
});
