/**
 * Model preparation in its own child process (prepare-isolated.ts), for real: every hostile class
 * is refused with a 4xx-mapped error in words (no JavaScript error text); a file that overflows
 * the validator's stack (the precheck's depth limit raised to let it through) costs the child, not
 * this process; the time and memory bounds kill the child and answer model_too_complex; a kill
 * from outside answers invalid_model; a valid model comes back byte for byte as prepared in-process.
 */
import { readFileSync } from 'node:fs';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import { UserError } from '../../src/errors.js';
import { ModelRejectedError, ModelTooComplexError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { prepareModelIsolated } from '../../src/part-models/prepare-isolated.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { denseBox, texturedGpu } from '../helpers/gltf-fixtures.js';
import { baseGpuGlb, chainOfNodes, hostileModels } from '../helpers/hostile-models.js';
import { waitFor } from '../helpers/wait-for.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;
const gpu = demoPart('gpuTriple3Fan');

/** JavaScript's own words, which must never be what a user reads. */
const RAW_TEXT = /TypeError|RangeError|Cannot read prop|undefined \(reading|is not a function|Maximum call stack/;

async function refusal(p: Promise<unknown>): Promise<UserError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}

describe('prepareModelIsolated', () => {
  it('prepares a valid model to the same bytes as in-process preparation', async () => {
    const input = modelInputFromBytes('gpu.glb', await baseGpuGlb(305, 3));
    const [child, here] = await Promise.all([
      prepareModelIsolated(input, gpu, { limits }),
      prepareModel(input, gpu, { limits }),
    ]);
    expect(child.sha256).toBe(here.sha256);
    expect(Buffer.from(child.glb).equals(Buffer.from(here.glb))).toBe(true);
  });

  it('a .gltf with a separate .bin and .png prepares to the same bytes as in-process (IPC hands its files over intact)', async () => {
    const doc = (await texturedGpu(64, 305, 3)).doc;
    const { json, resources } = await new NodeIO().writeJSON(doc, { basename: 'gpu' });
    expect(Object.keys(resources).length).toBeGreaterThanOrEqual(2);
    const input = modelInputFromBytes('gpu.gltf', new TextEncoder().encode(JSON.stringify(json)), resources);
    const [child, here] = await Promise.all([
      prepareModelIsolated(input, gpu, { limits }),
      prepareModel(input, gpu, { limits }),
    ]);
    expect(child.sha256).toBe(here.sha256);
  });

  it('refuses every hostile class with a model error in words', async () => {
    for (const { name, bytes } of await hostileModels()) {
      const err = await refusal(prepareModelIsolated(modelInputFromBytes(`${name}.glb`, bytes), gpu, { limits }));
      expect(['invalid_model', 'model_too_large', 'model_too_complex'], name).toContain(err.code);
      expect(err.status, name).toBeGreaterThanOrEqual(400);
      expect(err.status, name).toBeLessThan(500);
      expect(err.message, name).toMatch(new RegExp(`^${name}\\.glb: `));
      expect(err.message, `${name}: ${err.message}`).not.toMatch(RAW_TEXT);
    }
  }, 120_000);

  it('a node chain that overflows the validator stack costs the child, and answers invalid_model', async () => {
    // past the precheck (its limits raised), the 20,000-deep chain reaches the validator's recursion
    const input = modelInputFromBytes('deep.glb', chainOfNodes(await baseGpuGlb(305, 3), 20_000));
    const err = await refusal(
      prepareModelIsolated(input, gpu, { limits: { ...limits, modelMaxNodes: 30_000, modelMaxDepth: 30_000 } }),
    );
    expect(err).toBeInstanceOf(ModelRejectedError);
    expect(err.message).toMatch(/^deep\.glb: the glTF tools failed on this file/);
    // it did reach the validator and overflow there (the words stay in the details)
    expect(err.details?.[0]?.message).toMatch(/stack/i);
  }, 60_000);

  it('a preparation over its time bound is killed: model_too_complex', async () => {
    // ~1.5M triangles simplified down to 1,000: seconds of work, bounded at 1 s
    const input = modelInputFromBytes('dense.glb', await denseBox(1_500_000, [0.126, 0.06, 0.305]).glb());
    const pids: number[] = [];
    const err = await refusal(
      prepareModelIsolated(
        input,
        gpu,
        { limits: { ...limits, modelMaxTriangles: 1000, modelPrepareTimeoutSeconds: 1 } },
        { onChild: (pid) => pids.push(pid) },
      ),
    );
    expect(err).toBeInstanceOf(ModelTooComplexError);
    expect(err.code).toBe('model_too_complex');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/^dense\.glb: preparing it took longer than 1 s \(RENDER_FARM_MODEL_PREPARE_TIMEOUT\)/);
    expect(pids).toHaveLength(1);
    expect(() => process.kill(pids[0]!, 0)).toThrow(); // the child is gone
  }, 60_000);

  it('a preparation over its memory bound is killed: model_too_complex', async () => {
    // a 4096 px texture decodes to 64 MiB and more in sharp: over a 128 MB bound with Node's own
    const input = modelInputFromBytes('big-texture.glb', await (await texturedGpu(4096, 305, 3)).glb());
    const err = await refusal(prepareModelIsolated(input, gpu, { limits: { ...limits, modelPrepareMemoryMb: 128 } }));
    expect(err).toBeInstanceOf(ModelTooComplexError);
    expect(err.message).toMatch(/needed more than 128 MB of memory \(RENDER_FARM_MODEL_PREPARE_MEMORY_MB\)/);
  }, 60_000);

  it('a child killed from outside mid-way answers invalid_model', async () => {
    const input = modelInputFromBytes('dense.glb', await denseBox(1_500_000, [0.126, 0.06, 0.305]).glb());
    const err = await refusal(
      prepareModelIsolated(
        input,
        gpu,
        { limits: { ...limits, modelMaxTriangles: 1000 } },
        { onChild: (pid) => void waitThenKill(pid) },
      ),
    );
    expect(err).toBeInstanceOf(ModelRejectedError);
    expect(err.message).toMatch(/^dense\.glb: preparing the model was killed \(SIGKILL\) before it finished/);
  }, 60_000);
});

/** Kills `pid` once it has run a little (it is loading and parsing by then). */
async function waitThenKill(pid: number): Promise<void> {
  // wait until the child has used some CPU: it is past start-up
  await waitFor(
    'the preparation child to have used 0.5 s of CPU',
    () => {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return Number(f[11]) > 50;
    },
    { timeoutMs: 30_000, intervalMs: 20 },
  );
  process.kill(pid, 'SIGKILL');
}
