/**
 * The visibility rules (src/pregen/combination.ts) checked against the real farm stage: builds
 * that share a combination key must render to the same pixels at every angle, and the
 * controls (a visible difference) must not. Guards the rules against farm model changes.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StageBuild } from '../../src/model/stage-contract.js';
import { DEMO_IDS as I, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Category, Part } from '../../src/model/part.js';
import { combinationKey, combinationMaterial } from '../../src/pregen/combination.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import type { RenderEngine } from '../../src/render/engine.js';
import { testEngine } from '../helpers/engine.js';

type Ids = Partial<Record<Category, string[]>>;
const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
const options = resolveRenderOptions({ format: 'sprite', width: 256, height: 256, profile: 'fast' });
// six angles around the turn
const ANGLES = [0, 12, 24, 36, 48, 60];

function parts(ids: Ids): Partial<Record<Category, Part[]>> {
  // in the order the cache renders: IDs sorted per category
  return Object.fromEntries(Object.entries(ids).map(([c, list]) => [c, [...list!].sort().map((id) => byId.get(id)!)]));
}
const keyOf = (ids: Ids) => combinationKey(combinationMaterial(parts(ids), {}, options));

const glass: Ids = {
  PCCase: [I.caseAeroGlass],
  Motherboard: [I.boardX670Atx],
  CPU: [I.cpuR7],
  CPUCooler: [I.coolerTowerDual],
  GPU: [I.gpuTriple3Fan],
  RAM: [I.ramRgb2x16],
  Storage: [I.ssdNvme2tb],
  PSU: [I.psu850],
  CaseFan: [I.fan120Black],
};
const solid: Ids = { ...glass, PCCase: [I.caseSteelSolid], Motherboard: [I.boardB760Matx] };

const CASES: [string, Ids, Ids][] = [
  ['another CPU under the air cooler', glass, { ...glass, CPU: [I.cpuI9] }],
  [
    'another CPU under an AIO pump',
    { ...glass, CPUCooler: [I.coolerAio240White] },
    { ...glass, CPUCooler: [I.coolerAio240White], CPU: [I.cpuI3] },
  ],
  ['a 2.5" SSD behind the tray', glass, { ...glass, Storage: [I.ssdNvme2tb, I.ssdSata500] }],
  ['control: a 3.5" drive in the cage', glass, { ...glass, Storage: [I.ssdNvme2tb, I.hdd4tb] }],
  ['control: another PSU in a glass case', glass, { ...glass, PSU: [I.psuWhite850] }],
  [
    'everything inside a solid case',
    solid,
    {
      ...solid,
      GPU: [I.gpuRgb3Fan],
      RAM: [I.ramGoldRgb4x8],
      CPUCooler: [I.coolerTowerSingle],
      CaseFan: [I.fan140Rgb3],
      PSU: [I.psu1000],
    },
  ],
  [
    'control: a 280 mm AIO in a solid case (the radiator reaches the shell)',
    solid,
    { ...solid, CPUCooler: [I.coolerAio280Rgb] },
  ],
  ['control: an SFX PSU in a solid case', solid, { ...solid, PSU: [I.psuSfx750] }],
];

describe('visibility rules on the farm stage', () => {
  let engine: RenderEngine;
  const cache = new Map<string, Buffer[]>();
  beforeAll(async () => {
    engine = await testEngine();
  });
  afterAll(async () => engine?.close());

  async function frames(ids: Ids): Promise<Buffer[]> {
    const k = JSON.stringify(parts(ids), (key, v) => (key === 'specs' ? undefined : v));
    if (!cache.has(k)) {
      const build: StageBuild = { parts: parts(ids), state: null };
      const pngs = await engine.stills({ build, options, indices: ANGLES });
      cache.set(k, await Promise.all(pngs.map((p) => sharp(p).raw().toBuffer())));
    }
    return cache.get(k)!;
  }

  /** Pixels whose channels differ by more than a rounding step, over all angles. */
  function differing(a: Buffer[], b: Buffer[]): number {
    let n = 0;
    for (let f = 0; f < a.length; f++)
      for (let i = 0; i < a[f]!.length; i++) if (Math.abs(a[f]![i]! - b[f]![i]!) > 8) n++;
    return n;
  }

  it.each(CASES)('%s: same key <=> same pixels', async (_name, a, b) => {
    const sameKey = keyOf(a) === keyOf(b);
    const diff = differing(await frames(a), await frames(b));
    if (sameKey) expect(diff).toBe(0);
    else expect(diff).toBeGreaterThan(20);
  });
});
