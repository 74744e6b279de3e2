/**
 * `render-farm cache stats` and `cache gc` as child processes on the filesystem store: a
 * render completed with a real file and aged past the default 30 days is listed by a dry run
 * (nothing removed), then removed by gc.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { holderOf } from '../../src/jobs/claim-fence.js';
import { claimRender, completeRender } from '../../src/jobs/render-lifecycle.js';
import { submitRender } from '../../src/jobs/submit.js';
import { renderArtifactKey } from '../../src/storage/artifact-key.js';
import { FsArtifactStore } from '../../src/storage/fs-store.js';
import { cliOn } from '../helpers/cli.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('cache CLI', () => {
  const t = useQueueDb();
  const cli = cliOn(t);
  let file: string;
  let renderId: string;

  beforeAll(async () => {
    const customerId = (await ensureCustomer(t.db.db, 'acme')).id;
    const s = await submitRender(t.db, {
      customerId,
      parts: DEMO_BUILDS[0].parts as Record<string, string[]>,
      state: null,
      options: { format: 'sprite', profile: 'fast' },
    });
    renderId = s.render.id;
    const claimed = await claimRender(t.db.db, renderId, { workerId: 'w', lockedBy: null });
    // the CLI's store: the default, <data dir>/artifacts
    const store = await FsArtifactStore.open(path.join(t.cfg.dataDir, 'artifacts'));
    const key = renderArtifactKey(s.render.cache_key, 'sprite.webp');
    await store.putBuffer(key, Buffer.alloc(4096, 1), 'image/webp');
    file = store.pathOf(key);
    await completeRender(t.db.db, renderId, holderOf(claimed!), {
      artifacts: { sprite: key },
      spriteLayout: null,
      backend: 'test',
      framesPerSecond: 1,
      renderMs: 1,
      bytes: 4096,
    });
    await sql`UPDATE renders SET last_requested_at = now() - interval '40 days', finished_at = now() - interval '40 days' WHERE id = ${renderId}`.execute(
      t.db.db,
    );
  });

  it('cache stats: bytes, renders, hit rate, oldest, by format and profile; --json', async () => {
    const json = await cli('cache', 'stats', '--json');
    expect(json.code).toBe(0);
    const s = JSON.parse(json.stdout);
    expect(s).toMatchObject({ renders: 1, jobs: 1, hitRate: 0, usage: { renderBytes: 4096, renders: 1 } });
    expect(s.byKind).toEqual([{ format: 'sprite', profile: 'fast', renders: 1, bytes: 4096 }]);
    expect(s.policy).toMatchObject({ maxBytes: 50 * 1024 ** 3, maxAgeDays: 30, maxIdleDays: 30 });
    expect(new Date(s.oldestRequestedAt).getTime()).toBeLessThan(Date.now() - 39 * 86_400_000);

    const text = await cli('cache', 'stats');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('renders   1 holding 4.0 KiB');
    expect(text.stdout).toContain('budget    50.0 GiB; files idle 30 days go');
    expect(text.stdout).toMatch(/sprite\s+fast\s+1\s+4\.0 KiB/);
  });

  it('cache gc --dry-run says what would go and removes nothing; cache gc removes it', async () => {
    const dry = await cli('cache', 'gc', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      'dry run: would remove the files of 1 renders (1 idle too long, 0 over the byte budget), 4.0 KiB',
    );
    await expect(fs.stat(file)).resolves.toBeTruthy();

    const dryJson = JSON.parse((await cli('cache', 'gc', '--dry-run', '--json')).stdout);
    expect(dryJson).toMatchObject({ store: 'fs', dryRun: true, artifacts: { freedBytes: 4096, deletedFiles: 0 } });
    expect(dryJson.artifacts.renders.map((r: { id: string }) => r.id)).toEqual([renderId]);

    const gc = await cli('cache', 'gc', '--json');
    expect(gc.code).toBe(0);
    expect(JSON.parse(gc.stdout)).toMatchObject({
      dryRun: false,
      artifacts: { deletedFiles: 1, freedBytes: 4096, bytesAfter: 0 },
    });
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/);
    const after = JSON.parse((await cli('cache', 'stats', '--json')).stdout);
    expect(after).toMatchObject({
      renders: 0,
      expired: 1,
      usage: { renderBytes: 0, sweptRenders: 1, sweptBytes: 4096 },
    });
  });
});
