/**
 * The pregenerated cache's key: which parts of a build can be seen in the frames (visibility
 * rules), and the options that change pixels. Two requests with the same key render to the
 * same pixels, so `/render-build-experimental` serves one render for both.
 *
 * Visibility rules, read off what the farm stage draws (farm/src/build-scene.ts,
 * farm/src/models/case.ts, farm/src/layout/case-layout.ts) and checked by rendering pairs of
 * builds that differ only in the hidden part (test/pregen/visibility-stage.test.ts):
 *
 * 1. CPU: hidden whenever the build has a CPUCooler (the air cooler's base or the AIO's cold
 *    plate covers the socket from every angle).
 * 2. Storage 2.5" (SATA SSDs): hidden; they are mounted on the back of the motherboard tray,
 *    and the tray-side panel is solid on every case. Kept visible when the case is too short
 *    for all of them (the stage then places one below the floor).
 * 3. Storage M.2: visible (the top socket sits in plain view between the CPU and the first
 *    x16 slot; which socket a drive lands in depends on board and drive order).
 *    Storage 3.5": visible, even under a PSU shroud: the drive cage shows through the
 *    perforated front panel of glass and mesh cases (measured).
 * 4. PSU: visible in glass and mesh cases even with a shroud: its front end shows through
 *    the perforated front panel (measured). Hidden in solid-panel cases, except for its
 *    footprint (ATX or SFX), which shapes the PSU opening drawn on the rear panel; that
 *    footprint stays in the key (no PSU draws as the ATX footprint).
 * 5. Solid-panel cases (`sidePanel: solid`: closed sides, front and roof): everything inside
 *    is hidden (CPU, air CPUCooler, GPU, RAM, Storage, CaseFan) except the Motherboard, whose
 *    form factor places the rear I/O and slot covers. Kept visible because they can reach
 *    outside the shell, which also reframes the camera (measured): liquid coolers (the
 *    radiator's placement depends on the case), a GPU longer than the case allows, and
 *    everything in a case too narrow for a graphics card.
 *
 * The key also holds the data versions of the visible parts (a re-imported part with new
 * specs looks different) and a rules version, bumped whenever these rules change. The renderer
 * version and the part models (sql/0010) are not in the key: a newer renderer, or a visible
 * part's new model, leaves an entry servable but stale (the entry records its models in
 * `visible.models`; `pregen ls --stale` shows it; `pregen --stale` re-renders it).
 */
import { createHash } from 'node:crypto';
import { CATEGORIES, type Category, type Part, type PartIdMap } from '../model/part.js';
import { canonicalJson } from '../jobs/cache-key.js';
import type { ResolvedRenderOptions } from '../model/render-options.js';
import { DEFAULT_GRID } from '../model/render-defaults.js';

/** Bump when a rule below changes: old keys then stop matching (404 until pregenerated again). */
export const VISIBILITY_RULES_VERSION = 1;

/** Mirrors of farm constants the rules need (farm/src/models/gpu.ts, layout/case-layout.ts). */
const CARD_HEIGHT_MM = 126;
/** window-side wall + tray cable space + standoffs + the window wall: x room left for a card */
const CASE_X_OVERHEAD_MM = 42;
/** a card starts 8 mm inside the rear wall and must end 4 mm before the front wall */
const CASE_Z_OVERHEAD_MM = 22;

/** A part left out of the key, and why. */
export interface HiddenPart {
  id: string;
  category: Category;
  reason: string;
}

/** What of a build can be seen: the key material for its parts. */
export interface VisibleSignature {
  /** visible part IDs by category (canonical category order, IDs sorted, repeats kept) */
  parts: PartIdMap;
  /** what hidden parts still leave in the frame, e.g. `{ PSU: 'footprint:ATX' }` */
  traces: Record<string, string>;
  hidden: HiddenPart[];
}

type Parts = Partial<Record<Category, Part[]>>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A solid-panel case roomy enough for a card hides its inside; a glass or mesh one shows it. */
function isClosedCase(parts: Parts): boolean {
  const c = parts.PCCase?.[0];
  const width = num((c?.specs as { widthMm?: unknown } | undefined)?.widthMm);
  return (
    c?.category === 'PCCase' &&
    (c.specs as { sidePanel?: unknown }).sidePanel === 'solid' &&
    width !== null &&
    width - CASE_X_OVERHEAD_MM >= CARD_HEIGHT_MM
  );
}

/** Whether a card fits inside a closed case without poking through a panel. */
function cardFits(gpu: Part, pcCase: Part): boolean {
  const len = num((gpu.specs as { lengthMm?: unknown }).lengthMm);
  const depth = num((pcCase.specs as { depthMm?: unknown }).depthMm);
  if (len === null || depth === null) return false;
  // the stage draws cards at least 150 mm long (the width is checked by isClosedCase)
  return Math.max(len, 150) <= depth - CASE_Z_OVERHEAD_MM;
}

/** How many drives the tray's back holds inside a case of this height (the stage steps 105 mm down from the top). */
function trayDriveSlots(pcCase: Part | undefined): number {
  const h = num((pcCase?.specs as { heightMm?: unknown } | undefined)?.heightMm);
  if (h === null) return 0;
  // slot i spans y = h - 120 - 105 i .. h - 50 - 105 i; it must stay above the floor wall;
  // the stage reuses the top four slots for a fifth drive
  return Math.min(4, Math.max(0, Math.floor((h - 125) / 105) + 1));
}

/** The PSU footprint the rear panel shows (farm/src/layout/case-layout.ts: SFX* vs the rest). */
function psuFootprint(psu: Part | undefined): string {
  const ff = (psu?.specs as { formFactor?: unknown } | undefined)?.formFactor;
  return typeof ff === 'string' && ff.startsWith('SFX') ? 'SFX' : 'ATX';
}

/** Applies the visibility rules to a resolved build. */
export function visibleSignature(parts: Parts): VisibleSignature {
  const closed = isClosedCase(parts);
  const pcCase = parts.PCCase?.[0];
  const hasCooler = (parts.CPUCooler?.length ?? 0) > 0;
  const drives = parts.Storage ?? [];
  // M.2 drives can overflow behind the tray too, so count them against the tray's slots
  const trayBound = drives.filter((d) => (d.specs as { formFactor?: unknown }).formFactor !== '3.5').length;
  // past four drives the stage reuses the same four slots
  const trayFits = Math.min(trayBound, 4) <= trayDriveSlots(pcCase);

  const hidden: HiddenPart[] = [];
  const traces: Record<string, string> = {};
  const visible: PartIdMap = {};
  const why = (p: Part, category: Category): string | null => {
    switch (category) {
      case 'PCCase':
      case 'Motherboard':
        return null;
      case 'CPU':
        if (hasCooler) return 'under the CPU cooler';
        return closed ? 'inside a solid-panel case' : null;
      case 'Storage': {
        const ff = (p.specs as { formFactor?: unknown }).formFactor;
        if (ff === '2.5' && trayFits) return 'behind the motherboard tray';
        return closed ? 'inside a solid-panel case' : null;
      }
      case 'PSU':
        return closed ? 'inside a solid-panel case' : null;
      case 'GPU':
        return closed && pcCase && cardFits(p, pcCase) ? 'inside a solid-panel case' : null;
      case 'CPUCooler':
        return closed && (p.specs as { type?: unknown }).type === 'air' ? 'inside a solid-panel case' : null;
      default:
        return closed ? 'inside a solid-panel case' : null;
    }
  };
  for (const category of CATEGORIES) {
    const list = parts[category] ?? [];
    const ids: string[] = [];
    for (const p of list) {
      const reason = why(p, category);
      if (reason) hidden.push({ id: p.id, category, reason });
      else ids.push(p.id);
    }
    if (ids.length) visible[category] = ids.sort();
  }
  if (closed && !visible.PSU)
    traces.PSU = `footprint:${psuFootprint([...(parts.PSU ?? [])].sort((a, b) => (a.id < b.id ? -1 : 1))[0])}`;
  return { parts: visible, traces, hidden };
}

/** The resolved options that change pixels. */
export type PixelOptions = ResolvedRenderOptions;

/** Resolved options as keyed: grid settings only matter when the grid is drawn. */
export function pixelOptions(o: ResolvedRenderOptions): PixelOptions {
  return { ...o, gridSettings: o.showGrid ? o.gridSettings : { ...DEFAULT_GRID } };
}

/** Everything the key hashes, kept on the row for `pregen ls` and debugging. */
export interface CombinationMaterial {
  rules: number;
  visible: PartIdMap;
  traces: Record<string, string>;
  /** data versions of the visible parts */
  versions: Record<string, number>;
  options: PixelOptions;
}

/** Builds the key material of a resolved build and its resolved options. */
export function combinationMaterial(
  parts: Parts,
  versions: Record<string, number>,
  options: ResolvedRenderOptions,
): CombinationMaterial {
  const sig = visibleSignature(parts);
  const ids = Object.values(sig.parts).flat();
  const visibleVersions = Object.fromEntries(ids.sort().map((id) => [id, versions[id] ?? 1]));
  return {
    rules: VISIBILITY_RULES_VERSION,
    visible: sig.parts,
    traces: sig.traces,
    versions: visibleVersions,
    options: pixelOptions(options),
  };
}

/** The combination key: sha256 hex of the canonical JSON of the material. */
export function combinationKey(material: CombinationMaterial): string {
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}
