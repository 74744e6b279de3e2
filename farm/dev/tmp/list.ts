import { readdirSync, readFileSync } from 'node:fs';
import { mapOpenDbRecord } from '../../../src/catalog/opendb-map.js';
import type { Category } from '../../../src/catalog/types.js';
const cat = process.argv[2] as Category;
const grep = new RegExp(process.argv[3] ?? '.', 'i');
const dir = `/work/shared/opendb/sample/open-db/${cat}`;
for (const f of readdirSync(dir).sort()) {
  const r = mapOpenDbRecord(cat, JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')));
  if (!r.ok) continue;
  const line = `${f.slice(0, 8)} ${r.name.slice(0, 90)} ${JSON.stringify(r.specs)}`;
  if (grep.test(line)) console.log(line);
}
