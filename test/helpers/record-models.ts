/** Real OpenDB records through the mapper into the stage's models (Node only: no WebGL). */
import { expect } from 'vitest';
import { buildBuildGroup, buildPartModel } from '../../farm/src/build-scene.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { mapOpenDbRecord } from '../../src/catalog/opendb-map.js';
import type { Part } from '../../src/model/part.js';
import type { StageBuild } from '../../src/model/stage-contract.js';
import type { OpenDbRecord } from './opendb-data.js';
import { boxOf, finite } from './scene.js';

/** A build (every part drawn) stays under this many triangles. */
export const TRIANGLE_BUDGET = 150_000;

const base = demoStageBuild('DEMO-GLASS');

/**
 * Every record of one category that maps models alone and as the only part of its category in
 * the demo build: finite boxes, under the triangle budget; at least 90% of them map.
 */
export function expectRecordsModel(records: readonly OpenDbRecord[]): void {
  expect(records.length).toBeGreaterThan(0);
  let built = 0;
  for (const { category, file, record } of records) {
    const mapped = mapOpenDbRecord(category, record);
    if (!mapped.ok) continue; // the mapper's own tests cover unusable records
    const part = { id: file.slice(0, 9), category, name: mapped.name, specs: mapped.specs } as Part;
    expect(finite(boxOf(buildPartModel(part))), `${category}/${file} alone`).toBe(true);
    const build: StageBuild = { ...base, parts: { ...base.parts, [category]: [part] } };
    const full = buildBuildGroup(build);
    expect(finite(boxOf(full.group)), `${category}/${file} in a build`).toBe(true);
    expect(full.triangles).toBeLessThan(TRIANGLE_BUDGET);
    built++;
  }
  expect(built).toBeGreaterThan(records.length * 0.9);
}
