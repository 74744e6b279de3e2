/**
 * Model inputs from files and bytes: a .gltf comes with its files or is refused; URIs that are
 * absolute, have a scheme other than data:, or climb out with .. are refused before anything
 * is read; the byte limit applies to a file and to a .gltf with its files together.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelRejectedError, ModelTooLargeError } from '../../src/part-models/model-errors.js';
import { modelInputFromBytes, readModelFile } from '../../src/part-models/model-input.js';
import { distinctiveGpu, gltfWithExternalBuffer, notGltf } from '../helpers/gltf-fixtures.js';
import { useTempDir } from '../helpers/temp-dir.js';

const dir = useTempDir('model-input-');
const encode = (s: string) => new TextEncoder().encode(s);

/** The fixture's .gltf JSON with its one buffer URI replaced. */
async function gltfNaming(uri: string): Promise<Uint8Array> {
  const { json } = await gltfWithExternalBuffer();
  const doc = JSON.parse(json) as { buffers: { uri: string }[] };
  doc.buffers[0]!.uri = uri;
  return encode(JSON.stringify(doc));
}

async function refusal(fn: () => unknown): Promise<ModelRejectedError> {
  const err = await Promise.resolve()
    .then(fn)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(ModelRejectedError);
  return err as ModelRejectedError;
}

describe('readModelFile', () => {
  it('reads a .glb', async () => {
    const file = path.join(dir(), 'gpu.glb');
    const bytes = await distinctiveGpu().glb();
    await writeFile(file, bytes);
    const input = await readModelFile(file);
    expect(input).toMatchObject({ name: 'gpu.glb', kind: 'glb', resources: {} });
    expect(Buffer.from(input.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reads a .gltf with the .bin beside it, and refuses it when the .bin is missing', async () => {
    const { json, files } = await gltfWithExternalBuffer();
    const [binName] = Object.keys(files);
    const file = path.join(dir(), 'part.gltf');
    await writeFile(file, json);
    await writeFile(path.join(dir(), binName!), files[binName!]!);
    const input = await readModelFile(file);
    expect(input.kind).toBe('gltf');
    expect(Object.keys(input.resources)).toEqual([binName]);
    expect(input.resources[binName!]!.byteLength).toBe(files[binName!]!.byteLength);

    await rm(path.join(dir(), binName!));
    const err = await refusal(() => readModelFile(file));
    expect(err.message).toBe(
      `part.gltf: "${binName}" is not there (/buffers/0/uri): a .gltf must be self-contained or come with its files (put them beside it, or export a .glb)`,
    );
    expect(err.status).toBe(422);
  });

  it('refuses a file over the byte limit before reading it, and a missing file', async () => {
    const file = path.join(dir(), 'big.glb');
    await writeFile(file, await distinctiveGpu().glb());
    const err = await readModelFile(file, 1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelTooLargeError);
    expect((err as ModelTooLargeError).message).toMatch(/^big\.glb: is [\d.]+ KiB, over the limit of 1\.0 KiB/);

    expect((await refusal(() => readModelFile(path.join(dir(), 'nope.glb')))).message).toMatch(/no such file/);
  });
});

describe('modelInputFromBytes', () => {
  it('takes a .gltf with the files handed over, and counts them in the byte limit', async () => {
    const { json, files } = await gltfWithExternalBuffer();
    const input = modelInputFromBytes('part.gltf', encode(json), files);
    expect(Object.keys(input.resources)).toEqual(Object.keys(files));
    const total = encode(json).byteLength + Object.values(files)[0]!.byteLength;
    expect(() => modelInputFromBytes('part.gltf', encode(json), files, total - 1)).toThrow(ModelTooLargeError);
    expect(() => modelInputFromBytes('part.gltf', encode(json), files, total)).not.toThrow();
  });

  it.each([
    ['/etc/passwd', /is an absolute path/],
    ['file:///etc/passwd', /is a URL \(file:\)/],
    ['https://example.com/part.bin', /is a URL \(https:\)/],
    ['../secret.bin', /reaches outside the model's folder/],
    ['sub/%2e%2e/%2e%2e/secret.bin', /reaches outside the model's folder/],
    ['C:\\models\\part.bin', /is a URL \(C:\)|absolute path/],
  ])('refuses the URI %s', async (uri, why) => {
    const bytes = await gltfNaming(uri);
    const err = await refusal(() => modelInputFromBytes('part.gltf', bytes, { 'part.bin': new Uint8Array(8) }));
    expect(err.message).toMatch(why);
    expect(err.message).toContain('(/buffers/0/uri)');
    expect(err.details?.[0]?.pointer).toBe('/buffers/0/uri');
  });

  it('allows data: URIs and finds files in sub-folders', async () => {
    const inline = await gltfNaming('data:application/octet-stream;base64,AAAA');
    expect(modelInputFromBytes('part.gltf', inline).resources).toEqual({});
    const sub = await gltfNaming('bin/part%20one.bin');
    const input = modelInputFromBytes('part.gltf', sub, { 'bin/part one.bin': new Uint8Array(4) });
    expect(Object.keys(input.resources)).toEqual(['bin/part%20one.bin']);
  });

  it('tells .glb from .gltf by content, and refuses other file types', async () => {
    expect(modelInputFromBytes('model.bin', await distinctiveGpu().glb()).kind).toBe('glb');
    // a .glb that is not one goes on to the validator, which says why
    expect(modelInputFromBytes('cube.glb', notGltf()).kind).toBe('glb');
    expect((await refusal(() => modelInputFromBytes('cube.stl', notGltf()))).message).toMatch(
      /cube\.stl: not a glTF model: give a \.glb or a \.gltf/,
    );
  });
});
