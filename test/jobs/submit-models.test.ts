/**
 * Part models through submission and the worker's render input: a model gives the build a new
 * cache key (a new render, its models recorded on the row), removing it brings back the old key
 * (the old render is shared again), and a render keyed before the model was added is refused by
 * the worker for good, naming the part.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import { PermanentRenderError } from '../../src/jobs/errors.js';
import { submitRender } from '../../src/jobs/submit.js';
import { loadRenderInput } from '../../src/jobs/tasks/render-input.js';
import type { Part } from '../../src/model/part.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { addModel, removeModel } from '../../src/part-models/model-library.js';
import { modelLimitsFrom } from '../../src/part-models/model-limits.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { distinctiveGpu } from '../helpers/gltf-fixtures.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('render submission with part models', () => {
  const t = useQueueDb();
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;
  const parts = glass.parts as Record<string, string[]>;
  let customerId: string;

  beforeAll(async () => {
    customerId = (await ensureCustomer(t.db.db, 'acme')).id;
  });

  it('a model changes the key, removing it restores the key, and the worker refuses a render keyed without it', async () => {
    const submit = () => submitRender(t.db, { customerId, parts, state: null, options: { format: 'sprite' } });
    const before = await submit();
    expect(before.outcome).toBe('new');
    expect(before.render.models).toBeNull();

    const store = await openArtifactStore(t.cfg);
    const glb = await distinctiveGpu(gpu.specs.lengthMm, gpu.specs.slotWidth).glb();
    const added = await addModel(t.db, store, gpu.id, modelInputFromBytes('gpu.glb', glb), {
      limits: modelLimitsFrom(t.cfg),
    });

    const withModel = await submit();
    expect(withModel.outcome).toBe('new');
    expect(withModel.render.cache_key).not.toBe(before.render.cache_key);
    expect(withModel.render.models).toEqual({ [gpu.id]: added.model.sha256 });
    const input = await loadRenderInput(t.db, withModel.render, (op) => op());
    expect(input.build.models).toEqual({ [gpu.id]: added.model.sha256 });

    const stale = await loadRenderInput(t.db, before.render, (op) => op()).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(PermanentRenderError);
    expect((stale as Error).message).toContain(
      `part models changed since this render was requested (${gpu.id} none -> ${added.model.sha256.slice(0, 8)})`,
    );

    await removeModel(t.db, gpu.id);
    const after = await submit();
    expect(after.render.id).toBe(before.render.id);
    expect(after.outcome).toBe('reused');
  });
});
