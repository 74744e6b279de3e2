/** The doctor's probe scene: the DEMO-GLASS build from the built-in demo data (no database needed). */
import type { StageBuild } from '../model/stage-contract.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../catalog/demo-catalog.js';
import type { Category, Part } from '../model/part.js';

export function probeBuild(): StageBuild {
  const demo = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
  const parts: Partial<Record<Category, Part[]>> = {};
  for (const [cat, ids] of Object.entries(demo.parts) as [Category, string[]][]) {
    parts[cat] = ids.map((id) => byId.get(id)).filter((p): p is Part => !!p);
  }
  return { parts, state: demo.interactiveState ?? null };
}
