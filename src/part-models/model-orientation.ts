/**
 * Orientation and units of a model, found before it is fitted (docs/part-models.md): real exports
 * are rarely in the product's frame (metres, +Y up, front +Z; src/model/part-models.ts), so the
 * model's extents are compared with the part's expected size under the 24 axis-aligned
 * rotations and the common units (m, cm, mm, inch), and the candidate that puts every axis
 * within SIZE_TOLERANCE is applied to the scene.
 *
 * Extents choose the axis order (which file axis is the part's length, height, depth), never
 * the signs: glTF's +Y stays up when that order keeps it up; the remaining sign comes from what
 * the file says (case anchors, node, mesh and material names: a GPU's bracket is at -Z, its fans
 * face -Y, ...) and otherwise is a guess, reported as such. Explicit up/front/units (CLI flags,
 * manifest items, query parameters) restrict the search.
 *
 * A model no candidate fits is refused with its measured and expected proportions: `fit`
 * scales a model whose proportions match (only its size is off), `force` stores anything with a
 * warning.
 */
import { getBounds, type Document, type Node } from '@gltf-transform/core';
import { UserError } from '../errors.js';
import type { ModelCategory } from '../model/part-models.js';
import { ModelRejectedError } from './model-errors.js';

/** A measured axis may be this many times larger or smaller than expected. */
export const SIZE_TOLERANCE = 2;

/** Units a file may be in: metres per file unit. */
export const UNITS = { m: 1, cm: 0.01, mm: 0.001, in: 0.0254 } as const;
export type Unit = keyof typeof UNITS;
const UNIT_NAMES: Record<Unit, string> = { m: 'm', cm: 'cm', mm: 'mm', in: 'inch' };

/** A signed axis of the file: `+y` is glTF's up. */
export type AxisName = '+x' | '-x' | '+y' | '-y' | '+z' | '-z';
export const AXIS_NAMES: readonly AxisName[] = ['+x', '-x', '+y', '-y', '+z', '-z'];

/** What the artist or operator says about the file; each one narrows the search. */
export interface OrientationOverrides {
  /** the file's axis that points up in the product (+Y) */
  up?: AxisName;
  /** the file's axis that points to the part's front (+Z) */
  front?: AxisName;
  units?: Unit;
}

/** What was applied to the scene (stored on the model's row, shown by `models show`). */
export interface Orientation {
  /** rows: product axes x, y, z; columns: file axes; entries -1, 0, 1 (product = matrix * file) */
  matrix: number[][];
  /** the rotation in words: `none`, `+90 deg about Y`, `-90 deg about X, then 180 deg about Y` */
  rotation: string;
  units: Unit;
  /** the file's axis that became +Y, and the one that became +Z */
  up: AxisName;
  front: AxisName;
  /** the side (the sign the extents cannot tell) was not told by the file or an override */
  guessed: boolean;
  /** what decided the side: hint names, `override`, or empty */
  evidence: string[];
  /** the uniform scale applied: the unit's, times fit's when fitted */
  scale: number;
  /** one line: `rotated: +90 deg about Y; units: mm -> m` (`as authored` when nothing was done) */
  summary: string;
}

/** Parses an axis flag (`+z`, `z`, `-x`, any case); a `+` sent unescaped in a URL arrives as a space. */
export function parseAxis(value: unknown, what: 'up' | 'front'): AxisName {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const m = /^([+-]?)([xyz])$/.exec(v);
  if (!m)
    throw new UserError(
      'invalid_orientation',
      `${what} must be one of +x, -x, +y, -y, +z, -z (the file's axis that points ${what === 'up' ? 'up' : "to the part's front"}), not ${JSON.stringify(value)}`,
      { status: 400, details: [{ field: what, message: 'must be +x, -x, +y, -y, +z or -z' }] },
    );
  return `${m[1] || '+'}${m[2]}` as AxisName;
}

/** Parses a units flag: m, cm, mm, in (or inch). */
export function parseUnits(value: unknown): Unit {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const unit = v === 'inch' || v === 'inches' ? 'in' : v;
  if (!(unit in UNITS))
    throw new UserError(
      'invalid_orientation',
      `units must be m, cm, mm or inch (what one unit of the file is), not ${JSON.stringify(value)}`,
      { status: 400, details: [{ field: 'units', message: 'must be m, cm, mm or inch' }] },
    );
  return unit as Unit;
}

/** Overrides from loose values (CLI flags, a manifest item, query parameters); undefined ones are left out. */
export function parseOverrides(v: { up?: unknown; front?: unknown; units?: unknown }): OrientationOverrides {
  const o: OrientationOverrides = {};
  if (v.up !== undefined) o.up = parseAxis(v.up, 'up');
  if (v.front !== undefined) o.front = parseAxis(v.front, 'front');
  if (v.units !== undefined) o.units = parseUnits(v.units);
  if (o.up && o.front && o.up[1] === o.front[1]) {
    throw new UserError('invalid_orientation', `up (${o.up}) and front (${o.front}) must be different axes`, {
      status: 400,
      details: [{ field: 'front', message: 'same axis as up' }],
    });
  }
  return o;
}

type Mat = number[][];
type Vec3 = [number, number, number];
const AXIS_LETTERS = ['x', 'y', 'z'] as const;

const mul = (a: Mat, b: Mat): Mat =>
  a.map((row) => [0, 1, 2].map((j) => row.reduce((s, v, k) => s + v * b[k]![j]!, 0)));
const same = (a: Mat, b: Mat) => a.every((row, i) => row.every((v, j) => v === b[i]![j]));
const IDENTITY: Mat = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const det = (m: Mat) =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
  m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
  m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);

/** A quarter-turn rotation about one axis (right-handed), as an integer matrix. */
function turn(axis: 0 | 1 | 2, quarters: 1 | 2 | 3): Mat {
  const c = [1, 0, -1, 0][quarters]!;
  const s = [0, 1, 0, -1][quarters]!;
  const [a, b] = axis === 0 ? [1, 2] : axis === 1 ? [2, 0] : [0, 1];
  const m = IDENTITY.map((r) => [...r]);
  m[a]![a] = c;
  m[a]![b] = -s;
  m[b]![a] = s;
  m[b]![b] = c;
  return m;
}

const TURNS = ([0, 1, 2] as const).flatMap((axis) =>
  ([1, 3, 2] as const).map((q) => ({
    m: turn(axis, q),
    text: `${q === 2 ? '180' : q === 1 ? '+90' : '-90'} deg about ${AXIS_LETTERS[axis].toUpperCase()}`,
  })),
);

/** The rotation in words: one turn when one does it, else two (every one of the 24 is at most two). */
export function describeRotation(m: Mat): string {
  if (same(m, IDENTITY)) return 'none';
  const one = TURNS.find((t) => same(t.m, m));
  if (one) return one.text;
  for (const a of TURNS) for (const b of TURNS) if (same(mul(b.m, a.m), m)) return `${a.text}, then ${b.text}`;
  throw new Error(`not an axis-aligned rotation: ${JSON.stringify(m)}`);
}

/** The file axis (signed) that the matrix sends to product axis `row`. */
function fileAxisOf(m: Mat, row: number): AxisName {
  const j = m[row]!.findIndex((v) => v !== 0);
  return `${m[row]![j]! > 0 ? '+' : '-'}${AXIS_LETTERS[j]!}` as AxisName;
}

/** Unit quaternion [x, y, z, w] of a rotation matrix. */
function quaternionOf(m: Mat): [number, number, number, number] {
  const [m00, m01, m02] = m[0]!;
  const [m10, m11, m12] = m[1]!;
  const [m20, m21, m22] = m[2]!;
  const trace = m00! + m11! + m22!;
  let q: [number, number, number, number];
  if (trace > 0) {
    const s = Math.sqrt(trace + 1) * 2;
    q = [(m21! - m12!) / s, (m02! - m20!) / s, (m10! - m01!) / s, s / 4];
  } else if (m00! > m11! && m00! > m22!) {
    const s = Math.sqrt(1 + m00! - m11! - m22!) * 2;
    q = [s / 4, (m01! + m10!) / s, (m02! + m20!) / s, (m21! - m12!) / s];
  } else if (m11! > m22!) {
    const s = Math.sqrt(1 + m11! - m00! - m22!) * 2;
    q = [(m01! + m10!) / s, s / 4, (m12! + m21!) / s, (m02! - m20!) / s];
  } else {
    const s = Math.sqrt(1 + m22! - m00! - m11!) * 2;
    q = [(m02! + m20!) / s, (m12! + m21!) / s, s / 4, (m10! - m01!) / s];
  }
  return q;
}

const qmul = (a: number[], b: number[]): [number, number, number, number] => [
  a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!,
  a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!,
  a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!,
  a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!,
];

/**
 * Rotates (integer matrix) and scales the whole scene about the origin: each root node's
 * translation, rotation and scale (a rotation and a uniform scale compose with any TRS exactly).
 */
export function transformScene(doc: Document, m: Mat, s: number): void {
  const q = quaternionOf(m);
  for (const scene of doc.getRoot().listScenes()) {
    for (const node of scene.listChildren()) {
      const t = node.getTranslation();
      const k = node.getScale();
      node.setTranslation([0, 1, 2].map((i) => s * (m[i]![0]! * t[0] + m[i]![1]! * t[1] + m[i]![2]! * t[2])) as Vec3);
      node.setRotation(qmul(q, node.getRotation()));
      node.setScale([k[0] * s, k[1] * s, k[2] * s]);
    }
  }
}

/** The 24 rotations, grouped by the permutation they make (product axis i <- file axis perm[i]). */
function rotationsFor(perm: number[]): Mat[] {
  const out: Mat[] = [];
  for (const sx of [1, -1])
    for (const sy of [1, -1])
      for (const sz of [1, -1]) {
        const signs = [sx, sy, sz];
        const m = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (j === perm[i] ? signs[i]! : 0)));
        if (det(m) === 1) out.push(m);
      }
  return out;
}
const PERMS = [
  [0, 1, 2],
  [2, 1, 0],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
];

/**
 * Names that tell where a side of the part is: product-frame direction per category. Matched
 * (as a word) against node, mesh and material names and case anchors.
 */
const HINTS: Partial<Record<ModelCategory, Array<{ re: RegExp; dir: Vec3; label: string }>>> = {
  GPU: [
    { re: /bracket|io[_ -]?(plate|shield)|hdmi|display[_ -]?port/, dir: [0, 0, -1], label: 'bracket' },
    { re: /fans?|blades?|rotor|impeller/, dir: [0, -1, 0], label: 'fans' },
    { re: /back[_ -]?plate/, dir: [0, 1, 0], label: 'backplate' },
    { re: /pcie[_ -]?(finger|contact|connector)|gold[_ -]?finger|fingers/, dir: [1, 0, 0], label: 'PCIe fingers' },
  ],
  PCCase: [
    { re: /anchor_motherboard_tray|tray/, dir: [1, 0, 0], label: 'motherboard tray' },
    { re: /anchor_psu_bay|psu|shroud|floor|feet|foot/, dir: [0, -1, 0], label: 'floor' },
    { re: /anchor_fan_front|front/, dir: [0, 0, 1], label: 'front' },
    { re: /anchor_fan_rear|rear|back[_ -]?panel|io[_ -]?(shield|cutout)/, dir: [0, 0, -1], label: 'rear' },
    { re: /anchor_fan_top|roof|top[_ -]?panel/, dir: [0, 1, 0], label: 'top' },
    { re: /window|glass[_ -]?side|side[_ -]?glass/, dir: [-1, 0, 0], label: 'window' },
  ],
  CPUCooler: [
    { re: /base|cold[_ -]?plate|copper/, dir: [1, 0, 0], label: 'base' },
    { re: /top[_ -]?cover|cap|top/, dir: [-1, 0, 0], label: 'top' },
  ],
  RAM: [{ re: /contacts?|gold|pins|fingers/, dir: [1, 0, 0], label: 'contacts' }],
  Motherboard: [
    { re: /rear[_ -]?io|io[_ -]?shield|io[_ -]?ports/, dir: [0, 0, -1], label: 'rear I/O' },
    { re: /pcb|tray[_ -]?side/, dir: [1, 0, 0], label: 'PCB' },
  ],
  PSU: [
    { re: /fans?|grill/, dir: [0, -1, 0], label: 'fan' },
    { re: /iec|ac[_ -]?(inlet|socket)|power[_ -]?(switch|socket)|switch/, dir: [0, 0, -1], label: 'AC inlet' },
  ],
};

/** A named place in the file: its offset from the scene's centre, per axis in half-extents. */
interface Hint {
  name: string;
  label: string;
  offset: Vec3;
  dir: Vec3;
}

/**
 * Where a part's fans are when no name says it: the side most vertices are on. A fan's round hub
 * and blades are tessellated finely, a shroud's or housing's flat panels are not, so the vertex
 * centroid leans toward the fans. Product-frame direction of the fans per category.
 */
const DENSE_FANS: Partial<Record<ModelCategory, Vec3>> = { GPU: [0, -1, 0], PSU: [0, -1, 0] };
/** A density hint counts for less than a name: a name is the artist's word, density a guess. */
const DENSITY_WEIGHT = 0.5;

function vertexCentroid(doc: Document): Vec3 | null {
  const sum = [0, 0, 0];
  let n = 0;
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION');
      if (!pos) continue;
      const v = [0, 0, 0];
      for (let i = 0; i < pos.getCount(); i++) {
        pos.getElement(i, v);
        for (let k = 0; k < 3; k++) sum[k]! += m[k]! * v[0]! + m[4 + k]! * v[1]! + m[8 + k]! * v[2]! + m[12 + k]!;
        n++;
      }
    }
  }
  return n ? (sum.map((v) => v / n) as Vec3) : null;
}

function hintsOf(doc: Document, category: ModelCategory, center: Vec3, half: Vec3): Hint[] {
  const rules = HINTS[category] ?? [];
  const out: Hint[] = [];
  const fans = DENSE_FANS[category];
  const centroid = fans ? vertexCentroid(doc) : null;
  if (fans && centroid) {
    const offset = [0, 1, 2].map((i) =>
      half[i]! > 0 ? ((centroid[i]! - center[i]!) / half[i]!) * DENSITY_WEIGHT : 0,
    ) as Vec3;
    out.push({ name: 'dense round geometry', label: 'fans', dir: fans, offset });
  }
  const word = (re: RegExp, s: string) => new RegExp(`(^|[^a-z0-9])(${re.source})([^a-z]|$)`).test(s.toLowerCase());
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    const names = [
      node.getName(),
      mesh?.getName() ?? '',
      ...(mesh?.listPrimitives().map((p) => p.getMaterial()?.getName() ?? '') ?? []),
    ].filter(Boolean);
    if (!names.length) continue;
    const rule = rules.find((r) => names.some((n) => word(r.re, n)));
    if (!rule) continue;
    let at: Vec3;
    if (mesh) {
      const b = getBounds(node as Node);
      if (!b.min.every(Number.isFinite)) continue;
      at = [0, 1, 2].map((i) => (b.min[i]! + b.max[i]!) / 2) as Vec3;
    } else if (!node.listChildren().length) at = node.getWorldTranslation() as Vec3;
    else continue;
    out.push({
      name: node.getName() || names[0]!,
      label: rule.label,
      dir: rule.dir,
      offset: [0, 1, 2].map((i) => (half[i]! > 0 ? (at[i]! - center[i]!) / half[i]! : 0)) as Vec3,
    });
  }
  return out;
}

/** How well a rotation puts the named places where they belong (positive: agrees). */
function hintScore(m: Mat, hints: Hint[]): number {
  let score = 0;
  for (const h of hints) {
    const v = [0, 1, 2].map((i) => m[i]![0]! * h.offset[0] + m[i]![1]! * h.offset[1] + m[i]![2]! * h.offset[2]);
    // a place near the centre says nothing
    score += [0, 1, 2].reduce((s, i) => s + (Math.abs(v[i]!) > 0.15 ? v[i]! * h.dir[i]! : 0), 0);
  }
  return score;
}

interface Candidate {
  perm: number[];
  unit: Unit;
  /** measured / expected per product axis, after the unit */
  ratios: Vec3;
  /** sum of |log ratio|: 0 is exact */
  error: number;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const mmText = (v: number[]) => `${v.map((n) => round(n)).join(' x ')} mm`;
/** Proportions longest first, for messages that hold whatever the axes are. */
function proportions(v: number[]): string {
  const s = [...v].sort((a, b) => b - a);
  return s[0]! > 0 ? s.map((n) => round(n / s[0]!, 2)).join(' : ') : '0 : 0 : 0';
}

/** The perm keeps the file's Y as the product's Y. */
const keepsUp = (perm: number[]) => perm[1] === 1;

function allowed(perm: number[], o: OrientationOverrides): boolean {
  const axis = (a: AxisName) => AXIS_LETTERS.indexOf(a[1] as 'x');
  if (o.up && perm[1] !== axis(o.up)) return false;
  if (o.front && perm[2] !== axis(o.front)) return false;
  return true;
}

/** Rotations of `perm` that honour the overrides' signs (and glTF's +Y up where the perm keeps it). */
function signOptions(perm: number[], o: OrientationOverrides): Mat[] {
  return rotationsFor(perm).filter((m) => {
    if (o.up && fileAxisOf(m, 1) !== o.up) return false;
    if (o.front && fileAxisOf(m, 2) !== o.front) return false;
    if (!o.up && keepsUp(perm) && m[1]![1] !== 1) return false;
    return true;
  });
}

export interface PlaceOptions {
  overrides?: OrientationOverrides;
  /** scale a model whose proportions fit (only its size is off) into the expected box */
  fit?: boolean;
  /** store a model no candidate fits anyway (the closest one applied), with a warning */
  force?: boolean;
}

/**
 * Finds the rotation and units that make the scene the part (see the file's comment), applies
 * them (and fit's scale) to `doc`, and returns what was done. Throws ModelRejectedError for a
 * model nothing fits (unless `force`), an empty one, or one with no extent.
 */
export function orientModel(
  doc: Document,
  name: string,
  part: { id: string; category: ModelCategory },
  expected: Vec3,
  opts: PlaceOptions,
  warnings: string[],
): Orientation {
  const o = opts.overrides ?? {};
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  const box = scene ? getBounds(scene) : null;
  if (!box || !box.min.every(Number.isFinite) || !box.max.every(Number.isFinite))
    throw new ModelRejectedError(`${name}: the scene has no geometry to measure: the model is empty`);
  const extent = [0, 1, 2].map((i) => box.max[i]! - box.min[i]!) as Vec3;
  const center = [0, 1, 2].map((i) => (box.max[i]! + box.min[i]!) / 2) as Vec3;
  const asMetres = extent.map((e) => e * 1000);

  const units = o.units ? [o.units] : (Object.keys(UNITS) as Unit[]);
  const candidates: Candidate[] = [];
  for (const perm of PERMS) {
    if (!allowed(perm, o)) continue;
    for (const unit of units) {
      const ratios = [0, 1, 2].map((i) => (extent[perm[i]!]! * UNITS[unit] * 1000) / expected[i]!) as Vec3;
      const error = ratios.reduce((s, r) => s + (r > 0 ? Math.abs(Math.log(r)) : 50), 0);
      candidates.push({ perm, unit, ratios, error });
    }
  }
  const within = (r: number) => r >= 1 / SIZE_TOLERANCE && r <= SIZE_TOLERANCE;
  // the file's own axes first when they fit (the catalog sizes are approximate: a model that fits
  // as authored is never turned for a closer match), then glTF's +Y up, then the closest
  const asAuthored = (c: Candidate) => c.perm[0] === 0 && c.perm[1] === 1;
  const order = (a: Candidate, b: Candidate) =>
    Number(asAuthored(b)) - Number(asAuthored(a)) ||
    Number(keepsUp(b.perm)) - Number(keepsUp(a.perm)) ||
    a.error - b.error;
  const matches = candidates.filter((c) => c.ratios.every(within)).sort(order);

  let chosen = matches[0];
  let fitScale = 1;
  if (!chosen) {
    // the proportions fit but no unit does: its axes are within 2x of each other's ratio to the
    // part (a looser 4x, what a uniform scale into the 2x box allows, let a GPU pass for a case)
    const spread = (c: Candidate) =>
      Math.min(...c.ratios) > 0 ? Math.max(...c.ratios) / Math.min(...c.ratios) : Infinity;
    const shaped = candidates
      .filter((c) => c.unit === units[0] && spread(c) <= SIZE_TOLERANCE)
      .sort((a, b) => Number(keepsUp(b.perm)) - Number(keepsUp(a.perm)) || spread(a) - spread(b));
    const closest = [...candidates].sort((a, b) => a.error - b.error)[0]!;
    const measured = `measures ${mmText(asMetres)} (x, y, z, read as metres; proportions ${proportions(extent)}, longest first)`;
    const wanted = `${part.category} ${part.id} is about ${mmText(expected)} (proportions ${proportions(expected)})`;
    const details = AXIS_LETTERS.map((a, i) => ({
      message: `${a}: measured ${round(asMetres[i]!)} mm, expected ${round(expected[i]!)} mm`,
      axis: a,
      measuredMm: round(asMetres[i]!),
      expectedMm: expected[i]!,
    }));
    const off = AXIS_LETTERS.filter((_, i) => !within(asMetres[i]! / expected[i]!));
    const tried = `off by more than ${SIZE_TOLERANCE}x on ${off.join(', ')} as authored, and ${o.up || o.front ? 'no rotation the given up/front allow' : 'no rotation (24 axis-aligned)'} in ${o.units ? `its given units (${UNIT_NAMES[o.units]})` : 'any unit (m, cm, mm, inch)'}`;
    if (shaped[0] && opts.fit) {
      chosen = shaped[0];
    } else if (opts.force) {
      chosen = shaped[0] && opts.fit ? shaped[0] : closest;
      warnings.push(
        `stored anyway (--force): it ${measured} but ${wanted}; it is ${tried} brings every axis within ${SIZE_TOLERANCE}x`,
      );
    } else if (shaped[0]) {
      throw new ModelRejectedError(
        `${name}: ${measured} but ${wanted}: its proportions fit, but it is ${tried} brings every axis within ${SIZE_TOLERANCE}x: use --fit to scale it uniformly to the part (or --units)`,
        details,
      );
    } else {
      throw new ModelRejectedError(
        `${name}: ${measured} but ${wanted}: it is ${tried} brings every axis within ${SIZE_TOLERANCE}x, so it does not look like a ${part.category}, whatever --fit says. ` +
          `Check that the file is this part's (docs/part-models.md: metres, +Y up, front +Z); --force stores it anyway`,
        details,
      );
    }
    if (opts.fit) {
      // the largest uniform scale that keeps every axis inside the expected box
      fitScale = Math.min(...chosen.ratios.map((r) => (r > 0 ? 1 / r : Infinity)));
      if (!Number.isFinite(fitScale) || fitScale <= 0)
        throw new ModelRejectedError(`${name}: the scene has no extent to fit: the model is empty`);
    }
  }

  const options = signOptions(chosen.perm, o);
  const hints = hintsOf(doc, part.category, center, extent.map((e) => e / 2) as Vec3);
  const scored = options.map((m) => ({ m, score: hintScore(m, hints), identity: same(m, IDENTITY) }));
  // the file's own frame wins ties: an as-authored model is never turned without a reason
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      Number(b.identity) - Number(a.identity) ||
      b.m[0]![0]! + b.m[1]![1]! + b.m[2]![2]! - (a.m[0]![0]! + a.m[1]![1]! + a.m[2]![2]!),
  );
  const best = scored[0]!;
  const decided = options.length === 1 || (scored[1] !== undefined && best.score - scored[1].score > 0.1);
  const guessed = !decided && !best.identity;
  // the places that agree with the rotation chosen: what told the side
  const evidence =
    options.length === 1 && (o.up || o.front)
      ? ['override']
      : decided
        ? [...new Set(hints.filter((h) => hintScore(best.m, [h]) > 0).map((h) => `${h.label} (${h.name})`))]
        : [];

  const unitScale = UNITS[chosen.unit];
  const scale = unitScale * fitScale;
  transformScene(doc, best.m, scale);

  const rotation = describeRotation(best.m);
  const parts: string[] = [];
  if (rotation !== 'none') parts.push(`rotated: ${rotation}`);
  if (chosen.unit !== 'm') parts.push(`units: ${UNIT_NAMES[chosen.unit]} -> m`);
  if (fitScale !== 1) parts.push(`scaled x${round(fitScale, 4)} to fit ${mmText(expected)}`);
  const summary = parts.length ? parts.join('; ') : 'as authored';
  if (fitScale !== 1) {
    const after = chosen.ratios.map((r, i) => r * fitScale * expected[i]!);
    warnings.push(
      `scaled by ${round(fitScale, 4)} to fit ${mmText(expected)} (it measured ${mmText(chosen.ratios.map((r, i) => r * expected[i]!))})`,
    );
    const small = AXIS_LETTERS.filter((_, i) => after[i]! < expected[i]! / SIZE_TOLERANCE);
    if (small.length)
      warnings.push(
        `after fitting, ${small.join(', ')} is under half the expected size (${mmText(after)} vs ${mmText(expected)}): check the model's axes (+Y up, front +Z)`,
      );
  }
  if (guessed) {
    warnings.push(
      `orientation ${rotation === 'none' ? 'kept' : rotation}: its axes come from its size, but which way its front faces is a guess (nothing in the file names a side): check it with models preview, and give --front (and --up) if it is turned the wrong way`,
    );
  }
  return {
    matrix: best.m,
    rotation,
    units: chosen.unit,
    up: fileAxisOf(best.m, 1),
    front: fileAxisOf(best.m, 2),
    guessed,
    evidence,
    scale,
    summary,
  };
}
