/**
 * `npm run bench:thumbnails`: part thumbnails per second on this machine, real OpenDB parts
 * (spread evenly over the nine categories of the full tarball), through
 *   batch  - the farm's path: batches of THUMBNAIL_BATCH_SIZE parts, one page session each
 *            (thumbnails/batch-thumbnails.ts: load, one frame, PNG, next part; WebP encode,
 *            store and the batched attach overlap the page);
 *   single - the one-part path (renderThumbnail: a full render, files, one UPDATE per part).
 * Both store and attach for real (an embedded PostgreSQL, or a scratch database beside
 * DATABASE_URL; the filesystem store in a temporary folder). Prints thumbnails/s, CPU ms per
 * part (this process and every process it started: Chromium, and the embedded PostgreSQL when
 * there is no DATABASE_URL), batch/single, and the projected minutes for the full catalog. The load average is
 * printed too: on a shared machine wall times move with other people's work, CPU ms less.
 *
 *   npm run bench:thumbnails [-- --parts 300] [--single N (default: --parts)] [--batch-size N]
 *                            [--tarball path/to/opendb-renderable.tar.gz] [--json]
 *
 * measureThumbnails() is the measurement alone, for other benches (a database, store, engine
 * and parts of their own).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { importOpenDb } from '../src/catalog/importer.js';
import type { PartRow } from '../src/catalog/parts.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { treeCpuMs } from './proc-cpu.js';
import { scratchDb, type ScratchDb } from './scratch-db.js';
import { THUMBNAIL_BATCH_SIZE } from '../src/jobs/queue/task-map.js';
import { CATEGORIES } from '../src/model/part.js';
import { createRenderEngine, type RenderEngine } from '../src/render/engine.js';
import type { ArtifactStore } from '../src/storage/artifact-store.js';
import { openArtifactStore } from '../src/storage/open-artifact-store.js';
import { renderThumbnailBatch } from '../src/thumbnails/batch-thumbnails.js';
import { partsNeedingThumbnails, renderThumbnail } from '../src/thumbnails/part-thumbnail.js';

/** Parts in the full OpenDB catalog (the import goal: all of them in under 30 minutes). */
export const FULL_CATALOG_PARTS = 29_454;

export interface MeasureThumbnailsOptions {
  db: Db;
  store: ArtifactStore;
  engine: RenderEngine;
  parts: readonly PartRow[];
  /** 'batch' (default): the farm's path; 'single': one full render per part */
  path?: 'batch' | 'single';
  /** parts per batch (default THUMBNAIL_BATCH_SIZE, as the farm queues them) */
  batchSize?: number;
}

export interface ThumbnailMeasurement {
  parts: number;
  seconds: number;
  perSecond: number;
  failed: number;
  /** CPU ms per part of this process and its children (Chromium); 0 where /proc is missing */
  cpuMsPerPart: number;
  /** of which this Node process (WebP encode, store, database client, the stage server) */
  nodeCpuMsPerPart: number;
}

/** Renders, stores and attaches a thumbnail for each part; the rate of the chosen path. */
export async function measureThumbnails(opts: MeasureThumbnailsOptions): Promise<ThumbnailMeasurement> {
  const deps = { db: opts.db, store: opts.store, engine: opts.engine };
  const size = Math.max(1, opts.batchSize ?? THUMBNAIL_BATCH_SIZE);
  // a launched browser is part of a worker's steady state, not of the measurement
  await opts.engine.info();
  const cpu0 = treeCpuMs();
  const node0 = process.cpuUsage();
  const t0 = performance.now();
  let failed = 0;
  if (opts.path === 'single') {
    for (const part of opts.parts) {
      try {
        await renderThumbnail(deps, part);
      } catch {
        failed++;
      }
    }
  } else {
    for (let i = 0; i < opts.parts.length; i += size) {
      const r = await renderThumbnailBatch(deps, opts.parts.slice(i, i + size));
      failed += r.failed.length;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const node = process.cpuUsage(node0);
  const n = opts.parts.length;
  return {
    parts: n,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round((n / Math.max(1e-3, seconds)) * 100) / 100,
    failed,
    cpuMsPerPart: n ? Math.round((treeCpuMs() - cpu0) / n) : 0,
    nodeCpuMsPerPart: n ? Math.round((node.user + node.system) / 1000 / n) : 0,
  };
}

/** `count` parts spread evenly over the categories (and over each category's files). */
async function spreadSample(openDb: string, count: number, into: string): Promise<void> {
  const per = Math.max(1, Math.ceil(count / CATEGORIES.length));
  for (const c of CATEGORIES) {
    const files = (await fs.readdir(path.join(openDb, c))).filter((f) => f.endsWith('.json')).sort();
    await fs.mkdir(path.join(into, 'open-db', c), { recursive: true });
    const take = Math.min(per, files.length);
    for (let k = 0; k < take; k++) {
      const f = files[Math.floor((k * files.length) / take)]!;
      await fs.copyFile(path.join(openDb, c, f), path.join(into, 'open-db', c, f));
    }
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const here = path.dirname(fileURLToPath(import.meta.url));
  const tarball = path.resolve(flag('--tarball') ?? path.join(here, '../../shared/opendb/opendb-renderable.tar.gz'));
  const count = Number(flag('--parts') ?? 300);
  const singleCount = Number(flag('--single') ?? count);
  const batchSize = Number(flag('--batch-size') ?? THUMBNAIL_BATCH_SIZE);
  const json = args.includes('--json');
  const say = (line: string) => {
    if (!json) console.log(line);
  };
  await fs.access(tarball).catch(() => {
    throw new Error(`tarball not found: ${tarball} (pass --tarball)`);
  });

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'render-farm-bench-thumbs-'));
  // mkdtemp makes it 0700; run as root, the embedded server's own OS user must get in
  await fs.chmod(tmp, 0o755);
  let scratch: ScratchDb | undefined;
  try {
    await promisify(execFile)('tar', ['xzf', tarball, '-C', path.join(tmp)]);
    const sample = path.join(tmp, 'sample');
    await spreadSample(path.join(tmp, 'open-db'), count, sample);

    scratch = await scratchDb(path.join(tmp, 'data'), 'bench_thumbs');
    const { cfg } = scratch;
    const db = await openDatabase(cfg, { migrate: true });
    const engine = await createRenderEngine(cfg);
    try {
      await importOpenDb(db, sample);
      const parts = (await partsNeedingThumbnails(db)).slice(0, count);
      const store = await openArtifactStore(cfg);
      const info = await engine.info();
      say(
        `${parts.length} OpenDB parts over ${new Set(parts.map((p) => p.category)).size} categories; ${info.backend} (${info.glRenderer}); ${os.cpus().length} cores, load ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      );
      const batch = await measureThumbnails({ db, store, engine, parts, path: 'batch', batchSize });
      say(
        `batch  (${batchSize}/batch): ${batch.parts} in ${batch.seconds} s, ${batch.perSecond}/s, ${batch.cpuMsPerPart} CPU ms/part (Node ${batch.nodeCpuMsPerPart}), ${batch.failed} failed; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
      const single =
        singleCount > 0
          ? await measureThumbnails({ db, store, engine, parts: parts.slice(0, singleCount), path: 'single' })
          : null;
      if (single)
        say(
          `single: ${single.parts} in ${single.seconds} s, ${single.perSecond}/s, ${single.cpuMsPerPart} CPU ms/part (Node ${single.nodeCpuMsPerPart}), ${single.failed} failed; load ${os.loadavg()[0]!.toFixed(1)}`,
        );
      const minutes = (m: { perSecond: number }) => Math.round((FULL_CATALOG_PARTS / m.perSecond / 60) * 10) / 10;
      const ratio = single ? Math.round((batch.perSecond / single.perSecond) * 10) / 10 : null;
      if (json)
        console.log(
          JSON.stringify(
            {
              batch,
              single,
              ratio,
              projectedMinutes: { batch: minutes(batch), single: single ? minutes(single) : null },
              loadavg: os.loadavg(),
            },
            null,
            2,
          ),
        );
      else {
        if (ratio !== null) say(`batch/single: ${ratio}x`);
        say(
          `projected for ${FULL_CATALOG_PARTS} parts on one worker: batch ${minutes(batch)} min${single ? `, single ${minutes(single)} min` : ''} (goal: under 30 min, ~16/s)`,
        );
      }
    } finally {
      await engine.close();
      await db.close();
    }
  } finally {
    await scratch?.drop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

// run as a script; imported (bench/farm.ts), only the functions
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(`bench:thumbnails failed: ${(err as Error).message ?? err}`);
    process.exitCode = 1;
  });
}
