/**
 * Orientation and units found before fitting (docs/part-models.md), through prepareModel
 * with the real validator and glTF-Transform: real exports turned onto other axes and written
 * in mm, cm or inches are placed in the product's frame at their true size, the side from the
 * names in the file; what cannot be the part is refused whatever `fit` says, `force` stores it
 * with a warning; up/front/units overrides narrow the search; bad override values are 400s.
 */
import { getBounds, type Document } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { DEMO_PARTS, demoPart } from '../../src/catalog/demo-catalog.js';
import { isModelCategory } from '../../src/model/part-models.js';
import { UserError } from '../../src/errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { modelIO } from '../../src/part-models/model-io.js';
import { describeRotation, parseOverrides } from '../../src/part-models/model-orientation.js';
import { prepareModel } from '../../src/part-models/prepare-model.js';
import { groupWarnings } from '../../src/part-models/model-warnings.js';
import { denseBox, distinctiveGpu, FixtureDoc } from '../helpers/gltf-fixtures.js';
import { authoredAs, exampleAuthoredAs, TURNS } from '../helpers/real-exports.js';
import { rejection } from '../helpers/model-rejection.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;
const gpu = demoPart('gpuTriple3Fan'); // 305 mm, 3 slots: expected 126 x 61 x 305 mm
const pcCase = demoPart('caseAeroGlass');
const psu = demoPart('psu850');
const board = demoPart('boardX670Atx');

const input = (name: string, glb: Uint8Array) => modelInputFromBytes(name, glb);

/** Centre (mm) of the named node in the prepared model, in the product frame. */
async function centreOf(glb: Uint8Array, name: string): Promise<number[]> {
  const doc: Document = await (await modelIO()).readBinary(glb);
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getName() === name);
  expect(node, `node ${name} in the prepared model`).toBeDefined();
  const b = getBounds(node!);
  return [0, 1, 2].map((i) => ((b.min[i]! + b.max[i]!) / 2) * 1000);
}

/** The 24 axis-aligned rotations as quaternions: 4 turns about Y after each of 6 "which way is up" turns. */
function all24(): number[][] {
  const S = Math.SQRT1_2;
  const ups = [
    [0, 0, 0, 1],
    [1, 0, 0, 0],
    [S, 0, 0, S],
    [-S, 0, 0, S],
    [0, 0, S, S],
    [0, 0, -S, S],
  ];
  const spins = [
    [0, 0, 0, 1],
    [0, S, 0, S],
    [0, 1, 0, 0],
    [0, -S, 0, S],
  ];
  const mul = (a: number[], b: number[]) => [
    a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!,
    a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!,
    a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!,
    a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!,
  ];
  return ups.flatMap((u) => spins.map((s) => mul(u, s)));
}

describe('orientation and units', () => {
  it('a GPU authored lying along X in millimetres is placed upright at its true size, no flag: rotated -90 deg about Y, mm -> m', async () => {
    const p = await prepareModel(input('gpu-mm.glb', await exampleAuthoredAs(gpu, TURNS.yPlus90, 'mm')), gpu, {
      limits,
    });
    expect(p.orientation.summary).toBe('rotated: -90 deg about Y; units: mm -> m');
    expect(p.orientation).toMatchObject({
      rotation: '-90 deg about Y',
      units: 'mm',
      up: '+y',
      front: '+x',
      guessed: false,
    });
    expect(p.scale).toBeCloseTo(0.001, 6);
    p.sizeMm.forEach((v, i) =>
      expect(Math.abs(v - p.expectedMm[i]!), `axis ${i}`).toBeLessThan(p.expectedMm[i]! * 0.05),
    );
    // the bracket at -Z, the fans facing -Y: the side came from the file's names
    expect((await centreOf(p.glb, 'bracket'))[2]).toBeLessThan(-140);
    expect((await centreOf(p.glb, 'fan_1'))[1]).toBeLessThan(-10);
    expect(p.orientation.evidence.join(' ')).toMatch(/bracket/);
    expect(p.warnings.join('\n')).not.toMatch(/guess|scaled/);
  });

  it('a model that fits as authored is never turned: the example model of every demo part stays as it is', async () => {
    const turned: string[] = [];
    for (const part of DEMO_PARTS.filter((p) => isModelCategory(p.category))) {
      const p = await prepareModel(input(`${part.id}.glb`, await exampleAuthoredAs(part, TURNS.none, 'm')), part, {
        limits,
      });
      if (p.orientation.summary !== 'as authored' || p.orientation.guessed)
        turned.push(`${part.category} ${part.id}: ${p.orientation.summary}`);
    }
    expect(turned).toEqual([]);
  }, 120_000);

  it('every one of the 24 rotations, in m, cm, mm or inch, comes out as the as-authored model', async () => {
    const reference = await prepareModel(input('gpu.glb', await exampleAuthoredAs(gpu, TURNS.none, 'm')), gpu, {
      limits,
    });
    const refBracket = await centreOf(reference.glb, 'bracket');
    const units = ['m', 'cm', 'mm', 'in'] as const;
    const rotations = all24();
    expect(new Set(rotations.map((q) => q.map((v) => Math.round(v * 1000)).join())).size).toBe(24);
    for (const [i, q] of rotations.entries()) {
      const unit = units[i % 4]!;
      const p = await prepareModel(input(`gpu-${i}.glb`, await exampleAuthoredAs(gpu, q, unit)), gpu, { limits });
      p.sizeMm.forEach((v, k) =>
        expect(
          Math.abs(v - reference.sizeMm[k]!),
          `rotation ${i} (${unit}) axis ${k}: ${p.orientation.summary}`,
        ).toBeLessThan(1),
      );
      const bracket = await centreOf(p.glb, 'bracket');
      bracket.forEach((v, k) =>
        expect(Math.abs(v - refBracket[k]!), `rotation ${i} bracket axis ${k}`).toBeLessThan(1.5),
      );
      expect(p.orientation.guessed).toBe(false);
    }
  }, 120_000);

  it('a correct 305 mm card exported in millimetres is recognised (x0.001), with or without --fit, not fitted to 272 mm', async () => {
    const mm = await authoredAs(distinctiveGpu(305, 3), TURNS.none, 'mm');
    for (const fit of [false, true]) {
      const p = await prepareModel(input('card-mm.glb', mm), gpu, { limits, fit });
      expect(p.scale).toBeCloseTo(0.001, 6);
      expect(p.sizeMm[2]).toBeCloseTo(305, 0);
      expect(p.orientation.summary).toBe('units: mm -> m');
      expect(p.warnings.join('\n')).not.toMatch(/scaled/);
    }
  });

  it('a GPU given to a case is refused with measured and expected proportions, even with fit; force stores it with a warning', async () => {
    const glb = await exampleAuthoredAs(gpu, TURNS.none, 'm');
    for (const fit of [true, false]) {
      const err = await rejection(prepareModel(input('gpu.glb', glb), pcCase, { limits, fit }));
      expect(err.message).toMatch(
        /proportions 1 : 0\.4\d? : 0\.2\d?, longest first\) but PCCase .* \(proportions 1 : 0\.9\d* : 0\.4\d*\)/,
      );
      expect(err.message).toMatch(/does not look like a PCCase, whatever --fit says/);
      expect(err.message).toMatch(/--force/);
    }
    const p = await prepareModel(input('gpu.glb', glb), pcCase, { limits, force: true });
    expect(p.warnings.join('\n')).toMatch(/stored anyway \(--force\)/);
  });

  it('a flat (0 mm thick) PSU is refused, also with fit', async () => {
    const flat = new FixtureDoc('psu');
    flat.box({ size: [0.15, 0, 0.16], color: '#202020' }, 'plate');
    const glb = await flat.glb();
    for (const fit of [true, false]) {
      const err = await rejection(prepareModel(input('flat.glb', glb), psu, { limits, fit }));
      expect(err.message).toMatch(/measures 150 x 0 x 160 mm/);
      expect(err.message).toMatch(/does not look like a PSU/);
    }
  });

  it('a cloth (a thin sheet) given to a motherboard is refused', async () => {
    const err = await rejection(
      prepareModel(input('cloth.glb', await denseBox(2000, [1.2, 0.001, 0.9]).glb()), board, { limits, fit: true }),
    );
    expect(err.message).toMatch(/does not look like a Motherboard/);
  });

  it('a model of the right proportions in no known unit is refused naming --fit, and fit scales it', async () => {
    const f = distinctiveGpu(305, 3);
    f.root.setScale([3, 3, 3]);
    const glb = await f.glb();
    const err = await rejection(prepareModel(input('x3.glb', glb), gpu, { limits }));
    expect(err.message).toMatch(/its proportions fit.*use --fit/);
    const p = await prepareModel(input('x3.glb', glb), gpu, { limits, fit: true });
    expect(p.scale).toBeCloseTo(1 / 3, 1);
  });

  it("no names, but round fans: the fans' side (most vertices: their round geometry) is turned to -Y", async () => {
    // a card exported standing on its edge (length X, height Y, thickness Z), two 64-segment fan
    // discs on its +Z face; nothing is named after a side
    const f = new FixtureDoc('card');
    f.box({ size: [0.305, 0.126, 0.05], color: '#303030', material: 'm1' }, 'part_a');
    const disc = (cx: number) => {
      const seg = 64;
      const r = 0.045;
      const z = 0.03;
      const pos: number[] = [cx, 0, z];
      for (let i = 0; i <= seg; i++)
        pos.push(cx + r * Math.cos((i / seg) * 2 * Math.PI), r * Math.sin((i / seg) * 2 * Math.PI), z);
      const idx: number[] = [];
      for (let i = 1; i <= seg; i++) idx.push(0, i, i + 1);
      const doc = f.doc;
      const buffer = doc.getRoot().listBuffers()[0]!;
      const prim = doc
        .createPrimitive()
        .setAttribute(
          'POSITION',
          doc.createAccessor().setType('VEC3').setArray(new Float32Array(pos)).setBuffer(buffer),
        )
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(idx)).setBuffer(buffer))
        .setMaterial(doc.getRoot().listMaterials()[0]!);
      f.root.addChild(doc.createNode(`part_${cx > 0 ? 'b' : 'c'}`).setMesh(doc.createMesh().addPrimitive(prim)));
    };
    disc(-0.07);
    disc(0.07);
    const p = await prepareModel(input('standing.glb', await f.glb()), gpu, { limits });
    // the bracket end is still unnamed: that half is a guess, and said to be
    expect(p.orientation.guessed).toBe(true);
    const doc = await (await modelIO()).readBinary(p.glb);
    const discs = doc
      .getRoot()
      .listNodes()
      .filter((n) => n.getMesh() && n.getName() !== 'part_a');
    // joined or not, the disc geometry sits on the card's -Y face
    const box = getBounds(doc.getRoot().listScenes()[0]!);
    const all = discs.length ? discs.map((n) => getBounds(n)) : [box];
    for (const b of all) expect((b.min[1]! + b.max[1]!) / 2).toBeLessThan((box.min[1]! + box.max[1]!) / 2);
    expect(p.orientation.up).toBe('-z');
  });

  it('a side nothing in the file names is a guess, and says so', async () => {
    // distinctiveGpu names only "shroud" and "stripe": nothing tells its bracket end
    const p = await prepareModel(
      input('plain-x.glb', await authoredAs(distinctiveGpu(305, 3), TURNS.yPlus90, 'm')),
      gpu,
      { limits },
    );
    expect(p.orientation.guessed).toBe(true);
    expect(p.orientation.rotation).toMatch(/90 deg about Y/);
    expect(p.warnings.join('\n')).toMatch(/which way its front faces is a guess.*models preview.*--front/);
  });

  it('overrides: --units and --up/--front decide instead of the detection, a wrong one is refused', async () => {
    // as authored (m, +Y up), told mm: no longer fits the part
    const plain = await exampleAuthoredAs(gpu, TURNS.none, 'm');
    const err = await rejection(prepareModel(input('gpu.glb', plain), gpu, { limits, orientation: { units: 'mm' } }));
    expect(err.message).toMatch(/its given units \(mm\)/);
    // Blender's +Z up without the converter, told so: turned +Y up
    const zUp = await exampleAuthoredAs(gpu, TURNS.xMinus90, 'm');
    const told = await prepareModel(input('gpu-zup.glb', zUp), gpu, { limits, orientation: { up: '-z' } });
    expect(told.orientation).toMatchObject({ up: '-z', rotation: '+90 deg about X' });
    // the front given the other way round: the bracket ends at +Z (the override wins over the names)
    const flipped = await prepareModel(input('gpu-zup.glb', zUp), gpu, {
      limits,
      orientation: { up: '-z', front: '-y' },
    });
    expect(flipped.orientation).toMatchObject({ up: '-z', front: '-y', evidence: ['override'], guessed: false });
    expect((await centreOf(flipped.glb, 'bracket'))[2]).toBeGreaterThan(140);
    // an up that makes the card stand on its end: refused
    await rejection(prepareModel(input('gpu.glb', plain), gpu, { limits, orientation: { up: '+z' } }));
  });

  it('override values are parsed strictly: 400 invalid_orientation naming what is taken', () => {
    expect(parseOverrides({ up: 'Z', front: '-x', units: 'inch' })).toEqual({ up: '+z', front: '-x', units: 'in' });
    // a + sent unescaped in a query string arrives as a space
    expect(parseOverrides({ up: ' z' })).toEqual({ up: '+z' });
    for (const bad of [{ up: 'up' }, { front: '+w' }, { units: 'furlong' }, { up: '+y', front: '-y' }]) {
      let err: unknown;
      try {
        parseOverrides(bad);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(bad)).toBeInstanceOf(UserError);
      expect((err as UserError).status).toBe(400);
      expect((err as UserError).code).toBe('invalid_orientation');
    }
  });

  it('describes each rotation in at most two turns', () => {
    expect(
      describeRotation([
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]),
    ).toBe('none');
    expect(
      describeRotation([
        [0, 0, 1],
        [0, 1, 0],
        [-1, 0, 0],
      ]),
    ).toBe('+90 deg about Y');
    expect(
      describeRotation([
        [0, 0, 1],
        [1, 0, 0],
        [0, 1, 0],
      ]),
    ).toMatch(/^[+-]?\d+ deg about [XYZ], then [+-]?\d+ deg about [XYZ]$/);
  });

  it('groups warnings of one kind into one counted line', () => {
    expect(
      groupWarnings([
        'primitive 0: no normals',
        'primitive 1: no normals',
        'primitive 7: no normals',
        'simplified from 9 to 3 triangles',
      ]),
    ).toEqual(['primitive 0: no normals x3', 'simplified from 9 to 3 triangles']);
  });
});
