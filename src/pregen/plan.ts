/**
 * Turns sources x formats x profiles x sizes into pregen items: resolves the parts, keys each
 * combination, and decides per item: render, already cached, a duplicate of another item's
 * key (same visible parts and pixels), or invalid (the parts-map rules, unknown parts; a map
 * without a case renders in the stage's default case, like the API).
 */
import { UnknownPartsError } from '../catalog/resolve-build.js';
import { resolveBuild, type ResolvedBuild } from '../catalog/resolve-build.js';
import type { Category, Part, PartIdMap } from '../model/part.js';
import type { Db } from '../db/database.js';
import { parsePartsMap } from '../model/parts-map.js';
import { normaliseParts } from '../model/render-request.js';
import {
  renderOptionsSchema,
  resolveRenderOptions,
  type RenderOptions,
  type ResolvedRenderOptions,
} from '../model/render-options.js';
import { MAX_SIZE, MIN_SIZE, type Format, type Profile } from '../model/render-defaults.js';
import { existingKeys } from './cache-repository.js';
import { combinationKey, combinationMaterial, type CombinationMaterial } from './combination.js';
import { PregenInputError, type PartMapSource } from './sources.js';

/** The variations rendered for every combination. */
export interface PlanOptions {
  /** options shared by every item (scene, seasons, grid, camera, frame quality) */
  base: RenderOptions;
  formats: Format[];
  profiles: Profile[];
  /** frame sizes; empty = each format's default (video 1280x720, sprite 512x512) */
  sizes: { width: number; height: number }[];
  /** the current renderer version: with `stale`, entries of other versions (or drawn with other part models) render again */
  rendererVersion: string;
  stale?: boolean;
}

export type PlanAction = 'render' | 'cached' | 'duplicate' | 'invalid';

/** One combination in one variation. */
export interface PlanItem {
  /** 1-based position in the plan */
  index: number;
  label: string;
  source: string;
  /** what the UI shows after the label: `sprite 512x512 cinematic` */
  variant: string;
  action: PlanAction;
  /** why it is not rendered (cached, duplicate of #n, the invalid reason) */
  reason?: string;
  key: string;
  /** normalised part IDs (canonical categories, sorted) and the parts in that order */
  partIds: PartIdMap;
  parts: Partial<Record<Category, Part[]>>;
  input: RenderOptions;
  options: ResolvedRenderOptions;
  material: CombinationMaterial | null;
  /** part ID -> sha256 of the build's current part models (what the render draws); {} when none */
  models: Record<string, string>;
  /** frames one render of this item draws */
  frames: number;
}

/** The models of the parts a combination shows: what an entry records and staleness compares. */
export function visibleModels(material: CombinationMaterial, models: Record<string, string>): Record<string, string> {
  const ids = Object.values(material.visible).flat().sort();
  return Object.fromEntries(ids.filter((id) => models[id]).map((id) => [id, models[id]!]));
}

function sameModels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** `512x512,1280x720` -> sizes; an input error names the bad one. */
export function parseSizes(spec: string | undefined): { width: number; height: number }[] {
  if (!spec) return [];
  return spec.split(',').map((s) => {
    const m = /^\s*(\d+)x(\d+)\s*$/i.exec(s);
    if (!m) throw new PregenInputError(`--sizes takes WIDTHxHEIGHT[,...] like 512x512, got "${s}"`);
    const size = { width: Number(m[1]), height: Number(m[2]) };
    if ([size.width, size.height].some((n) => n < MIN_SIZE || n > MAX_SIZE)) {
      throw new PregenInputError(`--sizes: width and height must be ${MIN_SIZE} to ${MAX_SIZE}, got "${s.trim()}"`);
    }
    return size;
  });
}

/** The pregen flag that sets a render option, for messages (the API's field names mean nothing here). */
const OPTION_FLAGS: Record<string, string> = {
  width: '--sizes',
  height: '--sizes',
  format: '--formats',
  profile: '--profiles',
  winterMode: '--winter',
  springMode: '--spring',
};
const optionFlag = (field: string) =>
  OPTION_FLAGS[field] ?? `--${field.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;

/** The render options of one variation, validated like an API request. */
function variantOptions(
  base: RenderOptions,
  format: Format,
  profile: Profile,
  size: { width: number; height: number } | null,
): RenderOptions {
  const raw = { ...base, format, profile, ...(size ?? {}) };
  const parsed = renderOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new PregenInputError(
      parsed.error.issues
        .map(
          (i) =>
            `${i.path.length ? optionFlag(String(i.path[0])) : 'options'}: ${i.message}${i.path.length ? `, got ${JSON.stringify((raw as Record<string, unknown>)[String(i.path[0])])}` : ''}`,
        )
        .join('; '),
    );
  }
  return parsed.data;
}

/** Why a part map cannot be rendered (the shared rules, model/parts-map.ts), or null. */
function shapeProblem(parts: Record<string, string[]>): string | null {
  const check = parsePartsMap(parts);
  return check.ok ? null : check.refusal.message;
}

/** Builds the plan. Variations are checked first so a bad flag fails before any lookup. */
export async function planPregen(db: Db, sources: PartMapSource[], opts: PlanOptions): Promise<PlanItem[]> {
  const variants: { input: RenderOptions; options: ResolvedRenderOptions; text: string }[] = [];
  for (const format of opts.formats) {
    for (const profile of opts.profiles) {
      for (const size of opts.sizes.length ? opts.sizes : [null]) {
        const input = variantOptions(opts.base, format, profile, size);
        const options = resolveRenderOptions(input);
        const text = `${format} ${options.width}x${options.height} ${profile}${format === 'sprite' && options.frameQuality === 'high' ? ' high' : ''}`;
        variants.push({ input, options, text });
      }
    }
  }

  const items: PlanItem[] = [];
  for (const src of sources) {
    const problem = shapeProblem(src.parts);
    const partIds = problem ? (src.parts as PartIdMap) : normaliseParts(src.parts);
    let why: string | null = problem;
    let resolved: ResolvedBuild | null = null;
    if (!why) {
      try {
        resolved = await resolveBuild(db, src.parts as PartIdMap);
      } catch (err) {
        if (!(err instanceof UnknownPartsError)) throw err;
        why = err.message;
      }
    }
    // render in the normalised order, the order the cache key assumes (first PSU, first cooler ...)
    const parts: Partial<Record<Category, Part[]>> = {};
    if (!why) {
      for (const [c, list] of Object.entries(resolved!.build.parts) as [Category, Part[]][])
        parts[c] = [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
    for (const v of variants) {
      const material = why ? null : combinationMaterial(parts, resolved!.versions, v.options);
      items.push({
        index: items.length + 1,
        label: src.label,
        source: src.source,
        variant: v.text,
        action: why ? 'invalid' : 'render',
        reason: why ?? undefined,
        key: material ? combinationKey(material) : '',
        partIds,
        parts,
        input: v.input,
        options: v.options,
        material,
        models: resolved?.build.models ?? {},
        frames: v.options.frames,
      });
    }
  }

  const renderable = items.filter((i) => i.action === 'render');
  const existing = await existingKeys(
    db,
    renderable.map((i) => i.key),
  );
  const firstOfKey = new Map<string, PlanItem>();
  for (const item of renderable) {
    const first = firstOfKey.get(item.key);
    if (first) {
      item.action = 'duplicate';
      item.reason = `same visible parts and options as #${first.index} (${first.label})`;
      continue;
    }
    firstOfKey.set(item.key, item);
    const entry = existing.get(item.key);
    if (entry === undefined) continue;
    const olderRenderer = entry.rendererVersion !== opts.rendererVersion;
    // the key leaves models out (combination.ts): an entry drawn with another model is stale
    const otherModels = !sameModels(entry.models, visibleModels(item.material!, item.models));
    if (!(opts.stale && (olderRenderer || otherModels))) {
      item.action = 'cached';
      const why = [olderRenderer ? 'older renderer' : '', otherModels ? 'other part models' : '']
        .filter(Boolean)
        .join(', ');
      item.reason = why ? `already pregenerated (${why}; --stale re-renders)` : 'already pregenerated';
    }
  }
  return items;
}
