/**
 * The gallery's real builds: OpenDB records from ../shared/opendb/sample (by the first
 * characters of their file names), mapped with the catalog's own mapper. Chosen to cover
 * what render v2 must draw: dual-chamber cases, AIOs, long triple-fan cards, RGB memory, a
 * small-form-factor case and an all-white build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mapOpenDbRecord, partIdFromOpenDbId } from '../../src/catalog/opendb-map.js';
import type { Category, Part } from '../../src/model/part.js';
import type { InteractiveState } from '../../src/model/interactive-state.js';
import type { StageBuild } from '../../src/model/stage-contract.js';

export interface GalleryBuild {
  name: string;
  build: StageBuild;
}

type Recipe = { name: string; parts: Partial<Record<Category, string[]>>; state?: InteractiveState };

const RECIPES: Recipe[] = [
  {
    name: 'O11 Dynamic, 360 AIO, RTX 4090',
    parts: {
      PCCase: ['25e1680f'],
      Motherboard: ['6148c2f4'],
      CPU: ['163d1e0a'],
      CPUCooler: ['0da1d260'],
      GPU: ['20543e00'],
      RAM: ['0ebf04af'],
      Storage: ['0c9f0982'],
      PSU: ['18b7d0df'],
      CaseFan: ['15732127', '15732127'],
    },
    state: {
      radiator: { slot: 'top' },
      fans: [
        { slot: 'side-1' },
        { slot: 'side-2' },
        { slot: 'side-3' },
        { slot: 'bottom-1' },
        { slot: 'bottom-2' },
        { slot: 'bottom-3' },
      ],
    },
  },
  {
    name: 'All white: 360 AIO, RTX 5090 White',
    parts: {
      PCCase: ['16077403'],
      Motherboard: ['5bedf596'],
      CPU: ['4d8d9d6b'],
      CPUCooler: ['14280076'],
      GPU: ['3b884570'],
      RAM: ['049ecca5'],
      Storage: ['0c9f0982'],
      PSU: ['3c0cd654'],
      CaseFan: ['187fc866'],
    },
    state: { radiator: { slot: 'top' }, rgb: { color: '#e9f0ff', mode: 'static' } },
  },
  {
    name: 'Mini-ITX SFF: Jonsbo T8, RX 7600',
    parts: {
      PCCase: ['6918c444'],
      Motherboard: ['59eb3a66'],
      CPU: ['6b03b443'],
      CPUCooler: ['03486cdf'],
      GPU: ['06aadbb9'],
      RAM: ['02a5be57'],
      Storage: ['0c9f0982'],
      PSU: ['33aabeac'],
    },
  },
  {
    name: 'RGB air: H700i, RX 9070 XT, RGB RAM',
    parts: {
      PCCase: ['5a65e671'],
      Motherboard: ['70377fa7'],
      CPU: ['01c38047'],
      CPUCooler: ['1af157b2'],
      GPU: ['1cbcc6fc'],
      RAM: ['0ae60e4f'],
      Storage: ['0c9f0982'],
      PSU: ['0a88d240'],
      CaseFan: ['0b32f20a', '0b32f20a'],
    },
  },
  {
    name: 'HYTE Y60, 240 AIO, RTX 4070 Ti',
    parts: {
      PCCase: ['9e0ace8b'],
      Motherboard: ['3c33a05f'],
      CPU: ['163d1e0a'],
      CPUCooler: ['070275e5'],
      GPU: ['32d5789a'],
      RAM: ['10c49c21'],
      Storage: ['0c9f0982'],
      PSU: ['267ce838'],
      CaseFan: ['1798becb', '1798becb'],
    },
    state: { radiator: { slot: 'side' }, fans: [{ slot: 'bottom-1' }, { slot: 'bottom-2' }] },
  },
  {
    name: 'Silent Base 601, NH-U12A, RTX 4080 S',
    parts: {
      PCCase: ['0101e471'],
      Motherboard: ['6ccd798d'],
      CPU: ['103ad632'],
      CPUCooler: ['22bd46b3'],
      GPU: ['49ccc894'],
      RAM: ['02a5be57'],
      Storage: ['0c9f0982'],
      PSU: ['1301ec71'],
    },
  },
];

/** The records directory: ../shared/opendb/sample/open-db next to the repository. */
export function openDbSampleDir(root: string): string {
  return path.resolve(root, '..', 'shared', 'opendb', 'sample', 'open-db');
}

function record(dir: string, category: Category, prefix: string): Part {
  const folder = path.join(dir, category);
  const file = readdirSync(folder).find((f) => f.startsWith(prefix));
  if (!file) throw new Error(`no ${category} record ${prefix}* in ${folder}`);
  const raw = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as { opendb_id?: string };
  const mapped = mapOpenDbRecord(category, raw);
  if (!mapped.ok) throw new Error(`${category} ${file}: not mappable`);
  return { id: partIdFromOpenDbId(raw.opendb_id ?? file), category, name: mapped.name, specs: mapped.specs } as Part;
}

/** The gallery's OpenDB builds; empty when the sample is not there. */
export function openDbBuilds(dir: string): GalleryBuild[] {
  if (!existsSync(dir)) return [];
  return RECIPES.map((r) => {
    const parts: Partial<Record<Category, Part[]>> = {};
    for (const [category, prefixes] of Object.entries(r.parts) as [Category, string[]][])
      parts[category] = prefixes.map((p) => record(dir, category, p));
    return { name: r.name, build: { parts, state: r.state ?? null } };
  });
}
