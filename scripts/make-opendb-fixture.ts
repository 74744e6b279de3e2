/**
 * Chooses the OpenDB records of test/fixtures/opendb (a dev tool, run by hand with tsx):
 * `npx tsx scripts/make-opendb-fixture.ts <opendb dir> [per category]`.
 *
 * Per category it picks, greedily, the record that adds the most not-yet-seen features until
 * it has N records: the record's shape (each field path with the JSON type of its value, empty
 * vs non-empty arrays, nulls) weighs most, then short string values (the messy "3 Fans",
 * "2.5 Slot", "Tempered Glass" kind), then what the mapper makes of it (category enums, fan
 * counts, unusable reasons). Ties go to the smaller file name, so a rerun picks the same set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { mapOpenDbRecord } from '../src/catalog/opendb-map.js';
import { CATEGORIES } from '../src/model/part.js';

const source = process.argv[2];
const perCategory = Number(process.argv[3] ?? 20);
if (!source) {
  console.error('usage: npx tsx scripts/make-opendb-fixture.ts <opendb dir holding open-db/> [per category]');
  process.exit(2);
}
const out = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../test/fixtures/opendb');

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'array0' : v.length === 1 ? 'array1' : 'arrayN';
  return typeof v;
}

/** Weighted features of one record. */
function features(category: (typeof CATEGORIES)[number], record: unknown): Map<string, number> {
  const f = new Map<string, number>();
  const walk = (v: unknown, p: string): void => {
    f.set(`shape ${p}:${typeOf(v)}`, 10);
    if (typeof v === 'string' && v.length <= 24 && !p.startsWith('metadata') && !p.includes('sku'))
      f.set(`value ${p}=${v}`, 1);
    if (typeof v === 'number' && !Number.isInteger(v)) f.set(`fraction ${p}`, 3);
    if (Array.isArray(v)) v.forEach((x) => walk(x, `${p}[]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, p ? `${p}.${k}` : k);
  };
  walk(record, '');
  const m = mapOpenDbRecord(category, record);
  if (!m.ok) f.set(`unusable ${m.reason}`, 20);
  else
    for (const [k, v] of Object.entries(m.specs as Record<string, unknown>)) {
      if (typeof v === 'string' && !v.startsWith('#')) f.set(`mapped ${k}=${v}`, 5);
      if (typeof v === 'number' && /count|slots|modules|quantity|slotWidth/i.test(k)) f.set(`mapped ${k}=${v}`, 5);
    }
  return f;
}

fs.rmSync(path.join(out, 'open-db'), { recursive: true, force: true });
for (const category of CATEGORIES) {
  const dir = path.join(source, 'open-db', category);
  const files = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  const all = files.map((file) => ({ file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
  const feats = all.map(({ text }) => features(category, JSON.parse(text)));
  const seen = new Set<string>();
  const chosen: number[] = [];
  while (chosen.length < Math.min(perCategory, all.length)) {
    let best = -1;
    let bestGain = -1;
    feats.forEach((fm, i) => {
      if (chosen.includes(i)) return;
      let gain = 0;
      for (const [k, w] of fm) if (!seen.has(k)) gain += w;
      if (gain > bestGain) (best = i), (bestGain = gain);
    });
    chosen.push(best);
    for (const k of feats[best]!.keys()) seen.add(k);
  }
  fs.mkdirSync(path.join(out, 'open-db', category), { recursive: true });
  for (const i of chosen) fs.writeFileSync(path.join(out, 'open-db', category, all[i]!.file), all[i]!.text);
  const total = new Set(feats.flatMap((fm) => [...fm.keys()])).size;
  console.log(`${category}: ${chosen.length} of ${all.length} records, ${seen.size} of ${total} features`);
}
fs.copyFileSync(path.join(source, 'LICENSE.txt'), path.join(out, 'LICENSE.txt'));
