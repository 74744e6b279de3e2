/** StageBuilds from the demo catalog data (no database): for render tests and the bench. */
import type { StageBuild } from '../../../src/model/stage-contract.js';
import { DEMO_BUILDS, DEMO_IDS, DEMO_PARTS } from '../../../src/catalog/demo-catalog.js';
import type { Category, Part } from '../../../src/model/part.js';

/** The demo build with `shareCode`, resolved to parts, with its saved state. */
export function demoStageBuild(shareCode = 'DEMO-GLASS'): StageBuild {
  const demo = DEMO_BUILDS.find((b) => b.shareCode === shareCode);
  if (!demo) throw new Error(`no demo build ${shareCode}`);
  const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
  const parts: Partial<Record<Category, Part[]>> = {};
  for (const [cat, ids] of Object.entries(demo.parts) as [Category, string[]][]) {
    parts[cat] = ids.map((id) => byId.get(id)!).filter(Boolean);
  }
  return { parts, state: demo.interactiveState ?? null };
}

/** A demo part by its DEMO_IDS mnemonic. */
export function demoPart(key: keyof typeof DEMO_IDS): Part {
  const part = DEMO_PARTS.find((p) => p.id === DEMO_IDS[key]);
  if (!part) throw new Error(`no demo part ${key}`);
  return part;
}
