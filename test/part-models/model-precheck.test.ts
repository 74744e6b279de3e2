/**
 * The structural prechecks (model-precheck.ts) on hostile files made from a valid model: each
 * class is refused before any parser runs, with words that say what is wrong; image dimensions
 * are read from the headers of real PNG, JPEG and WebP files (sharp wrote them) and of KTX2.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes } from '../../src/part-models/model-input.js';
import { imageHeaderSize, precheckModel } from '../../src/part-models/model-precheck.js';
import { baseGpuGlb, hostileModels } from '../helpers/hostile-models.js';
import { TEST_MODEL_LIMITS } from '../helpers/model-limits.js';

const limits = TEST_MODEL_LIMITS;

/** What the precheck says of each class it catches (the rest are the validator's: see prepare-isolated.test.ts). */
const EXPECTED: Record<string, RegExp | null> = {
  'truncated-header': null, // under 12 bytes: not a GLB header at all, the validator says so
  'truncated-json': /header says \d+ bytes but the file has 40: the file is truncated/,
  'truncated-half': /header says \d+ bytes but the file has \d+: the file is truncated/,
  'header-length-too-long': /the file is truncated/,
  'header-length-too-short': /header says 24 bytes .*damaged/,
  'json-chunk-past-end': /JSON chunk claims \d+ bytes, past the end of the file/,
  'glb-version-1': /GLB version 1: only glTF 2\.0/,
  'buffer-length-lies': /buffer 0 declares \d+ bytes but \d+ came/,
  'accessor-count-2e9': /accessor 0 declares 2000000000 elements/,
  'implicit-accessor-1e9': /accessor \d+ declares 1000000000 elements/,
  'png-bomb-100000px': /image "bomb" is 100000x100000 px, over 8192 px a side/,
  'png-bomb-65535x2': /image "bomb" is 65535x2 px/,
  cycle: /the node graph has a cycle/,
  'self-child': /node 0 is its own child/,
  'two-parents': /node 2 is a child of both node 0 and node 1/,
  'child-out-of-range': /node 0 names a child 99 that is not a node/,
  'deep-20000': /20000 nodes, over the limit of 1000/,
  'deep-900': /more than 256 levels deep/,
  'wide-20000': /20001 nodes, over the limit of 1000/,
  'nan-positions': null, // binary data: the validator reads it
  'infinite-bounds': null,
  'materials-10000': /10000 materials, over the limit of 1024/,
  'json-nesting-100000': /nests deeper than 64 levels/,
  empty: null,
  'random-bytes': /GLB version \d+: only glTF 2\.0/,
};

describe('model prechecks', () => {
  it('refuse each hostile class they cover before any parser, in words', async () => {
    const models = await hostileModels();
    expect(models.map((m) => m.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const { name, bytes } of models) {
      const run = () => precheckModel(modelInputFromBytes(`${name}.glb`, bytes), limits);
      const expected = EXPECTED[name];
      if (!expected) {
        expect(run, name).not.toThrow();
        continue;
      }
      let err: unknown;
      try {
        run();
      } catch (e) {
        err = e;
      }
      expect(err, name).toBeInstanceOf(ModelRejectedError);
      expect((err as Error).message, name).toMatch(new RegExp(`^${name}\\.glb: `));
      expect((err as Error).message, name).toMatch(expected);
    }
  });

  it('let a valid model through, and a chain under the depth limit', async () => {
    const base = await baseGpuGlb();
    expect(() => precheckModel(modelInputFromBytes('gpu.glb', base), limits)).not.toThrow();
    const deep = (await hostileModels()).find((m) => m.name === 'deep-900')!;
    expect(() =>
      precheckModel(modelInputFromBytes('deep.glb', deep.bytes), { ...limits, modelMaxDepth: 1000 }),
    ).not.toThrow();
  });

  it('read image sizes from the headers of real PNG, JPEG and WebP files and of KTX2', async () => {
    const img = sharp({ create: { width: 321, height: 123, channels: 3, background: '#336699' } });
    expect(imageHeaderSize(await img.clone().png().toBuffer())).toEqual({ width: 321, height: 123 });
    expect(imageHeaderSize(await img.clone().jpeg({ progressive: true }).toBuffer())).toEqual({
      width: 321,
      height: 123,
    });
    expect(imageHeaderSize(await img.clone().jpeg().withMetadata().toBuffer())).toEqual({ width: 321, height: 123 });
    expect(imageHeaderSize(await img.clone().webp({ lossless: true }).toBuffer())).toEqual({ width: 321, height: 123 });
    expect(imageHeaderSize(await img.clone().webp({ quality: 80 }).toBuffer())).toEqual({ width: 321, height: 123 });
    const alpha = sharp({
      create: { width: 77, height: 55, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } },
    });
    expect(imageHeaderSize(await alpha.webp({ quality: 80 }).toBuffer())).toEqual({ width: 77, height: 55 });
    const ktx2 = Buffer.alloc(80);
    Buffer.from([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]).copy(ktx2);
    ktx2.writeUInt32LE(4096, 20);
    ktx2.writeUInt32LE(2048, 24);
    expect(imageHeaderSize(ktx2)).toEqual({ width: 4096, height: 2048 });
    expect(imageHeaderSize(Buffer.from('not an image at all'))).toBeNull();
  });
});
