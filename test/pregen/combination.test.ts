/** Visibility rules and the combination key (pure: demo catalog data, no database). */
import { describe, expect, it } from 'vitest';
import { DEMO_IDS as I, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Category, Part } from '../../src/model/part.js';
import { combinationKey, combinationMaterial, visibleSignature } from '../../src/pregen/combination.js';
import { renderOptionsSchema, resolveRenderOptions, type RenderOptionsInput } from '../../src/model/render-options.js';

const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
function parts(map: Partial<Record<Category, string[]>>): Partial<Record<Category, Part[]>> {
  return Object.fromEntries(Object.entries(map).map(([c, ids]) => [c, ids!.map((id) => byId.get(id)!)]));
}
const versions = (extra: Record<string, number> = {}) =>
  new Proxy(extra, { get: (t, k) => t[k as string] ?? 1 }) as Record<string, number>;
const key = (
  map: Partial<Record<Category, string[]>>,
  o: RenderOptionsInput = { format: 'sprite', profile: 'fast', width: 256, height: 256 },
  v = versions(),
) => combinationKey(combinationMaterial(parts(map), v, resolveRenderOptions(renderOptionsSchema.parse(o))));

const glass = {
  PCCase: [I.caseAeroGlass],
  Motherboard: [I.boardX670Atx],
  CPU: [I.cpuR7],
  CPUCooler: [I.coolerTowerDual],
  GPU: [I.gpuTriple3Fan],
  RAM: [I.ramRgb2x16],
  Storage: [I.ssdNvme2tb],
  PSU: [I.psu850],
  CaseFan: [I.fan120Rgb3, I.fan120Black],
};
const solid = { ...glass, PCCase: [I.caseSteelSolid] };

describe('combination key', () => {
  it('ignores part order and category order', () => {
    const reordered = {
      CaseFan: [I.fan120Black, I.fan120Rgb3],
      ...Object.fromEntries(Object.entries(glass).reverse()),
    };
    expect(key(reordered)).toBe(key(glass));
  });

  it('hides the CPU under any cooler, and shows it without one', () => {
    expect(key({ ...glass, CPU: [I.cpuI9] })).toBe(key(glass));
    expect(key({ ...glass, CPU: [] })).toBe(key(glass));
    const aio = { ...glass, CPUCooler: [I.coolerAio360] };
    expect(key({ ...aio, CPU: [I.cpuI9] })).toBe(key(aio));
    const bare = { ...glass, CPUCooler: [] };
    expect(key({ ...bare, CPU: [I.cpuI9] })).not.toBe(key(bare));
  });

  it('hides 2.5" drives behind the tray, shows M.2 and 3.5" drives', () => {
    expect(key({ ...glass, Storage: [I.ssdNvme2tb, I.ssdSata500] })).toBe(key(glass));
    expect(key({ ...glass, Storage: [I.ssdNvme2tb, I.hdd4tb] })).not.toBe(key(glass));
    expect(key({ ...glass, Storage: [I.ssdNvme1tb] })).not.toBe(key(glass));
  });

  it('shows the PSU of a glass case (through the front), hides it in a solid case but keeps its footprint', () => {
    expect(key({ ...glass, PSU: [I.psuWhite850] })).not.toBe(key(glass));
    expect(key({ ...solid, PSU: [I.psu1000] })).toBe(key(solid));
    expect(key({ ...solid, PSU: [] })).toBe(key(solid));
    expect(key({ ...solid, PSU: [I.psuSfx750] })).not.toBe(key(solid));
    expect(visibleSignature(parts({ ...solid, PSU: [I.psuSfxl850] })).traces).toEqual({ PSU: 'footprint:SFX' });
  });

  it('hides everything inside a solid-panel case except the board', () => {
    const inside = {
      ...solid,
      CPUCooler: [I.coolerTowerSingle],
      GPU: [I.gpuRgb3Fan],
      RAM: [I.ramGoldRgb4x8],
      CaseFan: [I.fan140Rgb3],
      Storage: [I.hdd12tb],
    };
    expect(key(inside)).toBe(key(solid));
    // a radiator can reach the shell (and reframe the camera): liquid coolers stay visible
    expect(key({ ...solid, CPUCooler: [I.coolerAio280Rgb] })).not.toBe(key(solid));
    expect(key({ ...solid, CPUCooler: [I.coolerAio280Rgb], GPU: [I.gpuRgb3Fan] })).toBe(
      key({ ...solid, CPUCooler: [I.coolerAio280Rgb] }),
    );
    expect(key({ ...solid, Motherboard: [I.boardZ790Atx] })).not.toBe(key(solid));
    const sig = visibleSignature(parts(solid));
    expect(Object.keys(sig.parts)).toEqual(['PCCase', 'Motherboard']);
    expect(sig.hidden.map((h) => h.category)).toEqual(
      expect.arrayContaining(['CPU', 'GPU', 'RAM', 'PSU', 'CaseFan', 'Storage']),
    );
  });

  it('keys the options that change pixels, not how they were asked', () => {
    const base = { format: 'sprite', profile: 'fast', width: 256, height: 256 } as const;
    expect(key(glass, { ...base, showGrid: false, gridSettings: { color: '#ffffff' } })).toBe(key(glass, base));
    expect(key(glass, { ...base, showGrid: true, gridSettings: { color: '#ffffff' } })).not.toBe(
      key(glass, { ...base, showGrid: true }),
    );
    expect(key(glass, { ...base, cameraZoom: 9 })).toBe(key(glass, { ...base, cameraZoom: 2 }));
    expect(key(glass, { ...base, profile: 'flat' })).not.toBe(key(glass, base));
    expect(key(glass, { ...base, format: 'video' })).not.toBe(key(glass, base));
    // an oversized sprite request is fitted to the same frames as the fitted size itself
    expect(key(glass, { format: 'sprite', width: 1920, height: 1080 })).toBe(
      key(glass, { format: 'sprite', width: 1365, height: 768 }),
    );
  });

  it('changes with the data version of a visible part only', () => {
    expect(key(glass, undefined, versions({ [I.gpuTriple3Fan]: 2 }))).not.toBe(key(glass));
    expect(key(glass, undefined, versions({ [I.cpuR7]: 2 }))).toBe(key(glass));
  });
});
