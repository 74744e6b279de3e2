/**
 * The triangle budget reached whatever the model is made of (model-simplify.ts), through the real
 * prepareModel and meshoptimizer: a ridged shell needs an error bound above the old last step
 * (5%), a model of hundreds of small separate parts needs sloppy simplification; the counts and
 * the error reached are reported; refused only when even that cannot fit.
 */
import { describe, expect, it } from 'vitest';
import { demoPart } from '../../src/catalog/demo-catalog.js';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import type { ModelLimits } from '../../src/part-models/model-limits.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { distinctiveGpu, FixtureDoc } from '../helpers/gltf-fixtures.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = (modelMaxTriangles: number): ModelLimits => ({ ...TEST_MODEL_LIMITS, modelMaxTriangles });
const gpu = demoPart('gpuTriple3Fan'); // 305 mm, 3 slots
const pcCase = demoPart('caseAeroGlass'); // 230 x 485 x 470 mm

/** A GPU shroud of 19,200 triangles with 10 mm ridges (fins): flat faces fold away, ridges do not. */
function ridgedGpu(): FixtureDoc {
  const f = new FixtureDoc('ridged');
  f.box({ size: [0.126, 0.06, 0.305], subdivisions: 40, relief: 0.01, color: '#e0109a', material: 'shroud' }, 'shroud');
  return f;
}

/** A case filled with 900 separate 4 mm cubes (screws, vents): 10,800 triangles the simplifier cannot collapse. */
function caseOfSmallParts(): FixtureDoc {
  const f = new FixtureDoc('parts');
  const k = 10;
  for (let i = 0; i < 900; i++) {
    const [x, y, z] = [i % k, Math.floor(i / k) % k, Math.floor(i / (k * k))];
    f.box(
      {
        size: [0.004, 0.004, 0.004],
        at: [-0.11 + (0.22 * x) / (k - 1), 0.01 + (0.47 * y) / (k - 1), -0.23 + (0.46 * z) / 8],
        color: '#808080',
        material: 'steel',
      },
      `part${i}`,
    );
  }
  return f;
}

describe('triangle budget', () => {
  it('raises the error bound past 5% when a ridged model needs it, and says how far', async () => {
    const p = await prepareModel(modelInputFromBytes('ridged.glb', await ridgedGpu().glb()), gpu, {
      limits: limits(600),
    });
    expect(p.originalTriangles).toBe(19_200);
    expect(p.triangles).toBeLessThanOrEqual(600);
    expect(p.simplification).toMatchObject({ before: 19_200, after: p.triangles, sloppy: false });
    expect(p.simplification!.error).toBeGreaterThan(0.05);
    expect(p.warnings).toContain(
      `simplified from 19200 to ${p.triangles} triangles (budget 600), within an error of ${p.simplification!.error * 100}% of each mesh's size`,
    );
  }, 60_000);

  it('falls back to sloppy simplification for hundreds of small separate parts, and says so', async () => {
    const p = await prepareModel(modelInputFromBytes('parts.glb', await caseOfSmallParts().glb()), pcCase, {
      limits: limits(2000),
    });
    expect(p.originalTriangles).toBe(10_800);
    expect(p.triangles).toBeLessThanOrEqual(2000);
    expect(p.triangles).toBeGreaterThan(0);
    expect(p.simplification).toMatchObject({ before: 10_800, after: p.triangles, sloppy: true });
    expect(p.warnings.join('\n')).toMatch(
      /simplified from 10800 to \d+ triangles \(budget 2000\), sloppy simplification needed, error [\d.]+% of the mesh size/,
    );
  }, 60_000);

  it('refuses only when even sloppy simplification cannot fit (a part is never simplified away), saying what to do', async () => {
    const err = await prepareModel(modelInputFromBytes('card.glb', await distinctiveGpu(305, 3).glb()), gpu, {
      limits: limits(1),
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ModelRejectedError);
    expect((err as Error).message).toMatch(
      /card\.glb: 24 triangles, over the budget of 1 per part, and simplification cannot get there \(nothing is left at that budget after .* then sloppy\): decimate it in the authoring tool/,
    );
  }, 60_000);
});
