/**
 * Batched thumbnails (one page session, many parts) give the same image as the one-part path
 * (renderThumbnail, a full render), for real OpenDB parts of every category; a part that fails
 * is reported and the rest of the batch completes.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenDb } from '../../src/catalog/importer.js';
import type { PartRow } from '../../src/catalog/parts.js';
import { CATEGORIES } from '../../src/model/part.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import type { ArtifactStore } from '../../src/storage/artifact-store.js';
import { renderThumbnailBatch } from '../../src/thumbnails/batch-thumbnails.js';
import { partsNeedingThumbnails, renderThumbnail } from '../../src/thumbnails/part-thumbnail.js';
import { testEngine } from '../helpers/engine.js';
import { FIXTURE_DIR } from '../helpers/opendb-data.js';
import { useTestDb } from '../helpers/db.js';

async function stored(store: ArtifactStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of (await store.read(key)) as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

async function rgba(webp: Buffer): Promise<Buffer> {
  return sharp(webp).ensureAlpha().raw().toBuffer();
}

describe('batched part thumbnails', () => {
  const t = useTestDb();
  let store: ArtifactStore;
  let engine: RenderEngine;
  let parts: PartRow[] = [];
  beforeAll(async () => {
    store = await openArtifactStore(t.cfg);
    engine = await testEngine();
    await importOpenDb(t.db, FIXTURE_DIR);
    // two parts of each category, from the middle of each list (the first ones are often alike)
    const all = await partsNeedingThumbnails(t.db);
    parts = CATEGORIES.flatMap((c) => {
      const of = all.filter((p) => p.category === c);
      return [of[Math.floor(of.length / 3)]!, of[Math.floor((2 * of.length) / 3)]!];
    });
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('draws every part exactly as the one-part path does, and attaches it', async () => {
    const outcomes: string[] = [];
    const batch = await renderThumbnailBatch({ db: t.db, store, engine }, parts, {
      onPart: (o) => outcomes.push(o.ok ? o.result.partId : o.failure.partId),
    });
    expect(batch.failed).toEqual([]);
    expect(batch.rendered.map((r) => r.partId)).toEqual(parts.map((p) => p.id));
    expect(batch.rendered.every((r) => r.attached && r.bytes > 0)).toBe(true);
    expect(outcomes.sort()).toEqual(parts.map((p) => p.id).sort());
    expect(await partsNeedingThumbnails(t.db, { ids: parts.map((p) => p.id) })).toEqual([]);

    const fromBatch = await Promise.all(batch.rendered.map((r) => stored(store, r.key)));
    // a following batch (which finds the previous one's last part and environment) draws the same
    const next = await renderThumbnailBatch({ db: t.db, store, engine }, parts.slice(-4));
    for (const [k, r] of next.rendered.entries())
      expect((await stored(store, r.key)).equals(fromBatch[parts.length - 4 + k]!), r.partId).toBe(true);
    for (const [i, part] of parts.entries()) {
      const single = await renderThumbnail({ db: t.db, store, engine }, part);
      expect(single.key).toBe(batch.rendered[i]!.key);
      const again = await stored(store, single.key);
      // same pixels (decoded), and in fact the same WebP bytes
      expect(
        Buffer.compare(await rgba(fromBatch[i]!), await rgba(again)),
        `${part.category} ${part.id} ${part.name}`,
      ).toBe(0);
      expect(fromBatch[i]!.equals(again), `${part.category} ${part.id}: WebP bytes`).toBe(true);
    }
  }, 300_000);

  it('skips a part that fails and completes the rest of the batch', async () => {
    const [a, b] = [parts[0]!, parts[3]!];
    // an id no artifact key accepts: its still renders, storing it fails
    const broken = { ...parts[1]!, id: 'no/such id' };
    const r = await renderThumbnailBatch({ db: t.db, store, engine }, [a, broken, b]);
    expect(r.rendered.map((x) => x.partId)).toEqual([a.id, b.id]);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]!.partId).toBe('no/such id');
    expect(r.failed[0]!.error).toMatch(/key/i);
  }, 120_000);
});
