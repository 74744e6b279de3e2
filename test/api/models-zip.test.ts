/**
 * PUT /models/:partId with application/zip (docs/part-models.md), through the real app, PostgreSQL
 * and filesystem store: the project's example GPU written as a .gltf with a separate .bin and
 * .png (glTF-Transform), zipped by the real `zip` CLI and by Python's zipfile, is stored with the
 * same prepared sha256 as the same model sent as a GLB. Zips that hide something (`..`, a
 * symlink, 257 entries, a declared or lying size, two models, none, a truncated file) are 4xx
 * error bodies naming the cause, and store nothing.
 */
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS, DEMO_PARTS } from '../../src/catalog/demo-catalog.js';
import type { Part } from '../../src/model/part.js';
import { exampleModel } from '../../src/part-models/example-models.js';
import { isErrorBody, useTestApi } from '../helpers/api.js';
import { partModelRows } from '../helpers/stored-models.js';

const MAX_BYTES = 1024 * 1024;
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
const gpu = DEMO_PARTS.find((p) => p.id === glass.parts.GPU![0]) as Part<'GPU'>;

/** Runs Python's zipfile: `script` gets `out` (the zip path) and `src` (the .gltf folder). */
function pyZip(out: string, src: string, script: string): Buffer {
  execFileSync('python3', ['-c', `import sys, zipfile, os\nout, src = sys.argv[1], sys.argv[2]\n${script}`, out, src]);
  return fsSync.readFileSync(out);
}

describe('PUT /models/:partId with application/zip', () => {
  const api = useTestApi({ modelMaxBytes: MAX_BYTES });
  let admin: string;
  let tmp: string;
  let src: string;
  let glb: Uint8Array;
  let cliZip: Buffer;

  const put = (body: Uint8Array, opts: { type?: string; query?: string } = {}) =>
    fetch(`${api.url}/models/${gpu.id}${opts.query ?? ''}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin}`, 'content-type': opts.type ?? 'application/zip' },
      body: Buffer.from(body),
    }).then(async (r) => ({ status: r.status, json: (await r.json().catch(() => undefined)) as any }));
  const rows = () => partModelRows(api.t);

  /** A refusal: the status, the error body (docs/design-decisions.md, "Errors") with `code`, a message naming the cause, nothing stored. */
  async function refused(body: Uint8Array, status: number, code: string, cause: RegExp) {
    const before = await rows();
    const r = await put(body);
    expect(r.status, JSON.stringify(r.json)).toBe(status);
    expect(isErrorBody(r.json)).toBe(true);
    expect(r.json.error).toBe(code);
    expect(r.json.message).toMatch(cause);
    expect(await rows()).toBe(before);
  }

  beforeAll(async () => {
    admin = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'models-zip-'));
    src = path.join(tmp, 'gpu');
    await fs.mkdir(src);
    // a texture, so the zip carries an image beside the buffer, as an exporter writes them
    const sketch = await exampleModel(gpu, { texturePx: 64 });
    glb = await new NodeIO().writeBinary(sketch.doc);
    await new NodeIO().write(path.join(src, 'gpu.gltf'), sketch.doc);
    execFileSync('zip', ['-q', '-r', '-X', 'gpu.zip', 'gpu'], { cwd: tmp });
    cliZip = await fs.readFile(path.join(tmp, 'gpu.zip'));
  }, 60_000);

  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('the example .gltf has its buffer and a PNG as separate files', async () => {
    const files = (await fs.readdir(src)).sort();
    expect(files).toContain('gpu.gltf');
    expect(files.some((f) => f.endsWith('.bin'))).toBe(true);
    expect(files.some((f) => f.endsWith('.png'))).toBe(true);
  });

  it('a zip from the zip CLI (.gltf + .bin + .png in a folder) stores the same prepared sha256 as the GLB', async () => {
    const zipped = await put(cliZip);
    expect(zipped.status, JSON.stringify(zipped.json)).toBe(201);
    expect(zipped.json.original_name).toBe('gpu.gltf');
    const asGlb = await put(glb, { type: 'model/gltf-binary' });
    // the same prepared bytes again: 200, nothing new
    expect(asGlb.status, JSON.stringify(asGlb.json)).toBe(200);
    expect(asGlb.json.sha256).toBe(zipped.json.sha256);
  }, 60_000);

  it("a zip from Python's zipfile, the .gltf at the top level, deflated: the same sha256", async () => {
    const z = pyZip(
      path.join(tmp, 'py.zip'),
      src,
      'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:\n    for f in sorted(os.listdir(src)): z.write(os.path.join(src, f), f)',
    );
    const r = await put(z);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const first = await api.call('GET', `/models/${gpu.id}`, { token: admin });
    expect(r.json.sha256).toBe(first.json.current.sha256);
  }, 60_000);

  it('?name= with a zip is 400: the model keeps its name in the zip', async () => {
    const r = await put(cliZip, { query: '?name=x.gltf' });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('invalid_query');
  });

  describe('refusals', () => {
    it('a `..` entry: 422 naming it', async () => {
      const z = pyZip(
        path.join(tmp, 'dotdot.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    z.write(os.path.join(src, "gpu.gltf"), "gpu.gltf")\n    z.writestr("../evil.bin", b"x")',
      );
      await refused(z, 422, 'invalid_model', /"\.\.\/evil\.bin" reaches outside the zip/);
    });

    it('an absolute entry: 422', async () => {
      const z = pyZip(
        path.join(tmp, 'abs.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    i = zipfile.ZipInfo("x"); i.filename = "/etc/evil.bin"; z.writestr(i, b"x")\n    z.write(os.path.join(src, "gpu.gltf"), "gpu.gltf")',
      );
      await refused(z, 422, 'invalid_model', /absolute path/);
    });

    it('a symlink entry (zip --symlinks): 422 naming it', async () => {
      const dir = path.join(tmp, 'linked');
      await fs.cp(src, dir, { recursive: true });
      await fs.symlink('/etc/passwd', path.join(dir, 'passwd.png'));
      execFileSync('zip', ['-q', '-r', '--symlinks', 'linked.zip', 'linked'], { cwd: tmp });
      await refused(
        await fs.readFile(path.join(tmp, 'linked.zip')),
        422,
        'invalid_model',
        /"linked\/passwd\.png" is a symbolic link/,
      );
    });

    it('257 entries: 422 naming the limit', async () => {
      const z = pyZip(
        path.join(tmp, 'many.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    z.write(os.path.join(src, "gpu.gltf"), "gpu.gltf")\n    for i in range(256): z.writestr(f"f{i}.txt", b"")',
      );
      await refused(z, 422, 'invalid_model', /257 entries, over the limit of 256/);
    });

    it('a zip bomb: a declared uncompressed size over the model byte limit is 413 before inflating', async () => {
      // 2 MiB of zeros deflates to about 2 KiB: under the body limit, over the model limit inflated
      const z = pyZip(
        path.join(tmp, 'bomb.zip'),
        src,
        'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:\n    with z.open("gpu.gltf", "w") as f:\n        for _ in range(32): f.write(bytes(65536))',
      );
      expect(z.byteLength).toBeLessThan(64 * 1024);
      await refused(z, 413, 'model_too_large', /uncompressed, over the limit of 1\.0 MiB/);
    });

    it('an entry that inflates past the size it declares: 422, inflating stops there', async () => {
      const z = pyZip(
        path.join(tmp, 'liar.zip'),
        src,
        'with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:\n    z.writestr("gpu.gltf", bytes(512 * 1024))\n' +
          'b = bytearray(open(out, "rb").read())\ncd = b.rindex(b"PK\\x01\\x02")\nb[cd + 24:cd + 28] = (1000).to_bytes(4, "little")\nopen(out, "wb").write(b)',
      );
      await refused(z, 422, 'invalid_model', /"gpu\.gltf" inflates to more than the 1000 bytes it declares/);
    });

    it('two .gltf files: 422 naming both', async () => {
      const z = pyZip(
        path.join(tmp, 'two.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    z.write(os.path.join(src, "gpu.gltf"), "a.gltf")\n    z.write(os.path.join(src, "gpu.gltf"), "b.gltf")',
      );
      await refused(z, 422, 'invalid_model', /2 models in it \(a\.gltf, b\.gltf\)/);
    });

    it('no .gltf: 422', async () => {
      const z = pyZip(
        path.join(tmp, 'none.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    for f in os.listdir(src):\n        if not f.endswith(".gltf"): z.write(os.path.join(src, f), f)',
      );
      await refused(z, 422, 'invalid_model', /no \.gltf or \.glb in it/);
    });

    it('a .gltf whose .bin is not in the zip: 422 naming the URI', async () => {
      const z = pyZip(
        path.join(tmp, 'nobin.zip'),
        src,
        'with zipfile.ZipFile(out, "w") as z:\n    for f in os.listdir(src):\n        if not f.endswith(".bin"): z.write(os.path.join(src, f), f)',
      );
      await refused(z, 422, 'invalid_model', /\.bin" is not there/);
    });

    it('a truncated zip: 422', async () => {
      await refused(cliZip.subarray(0, Math.floor(cliZip.byteLength / 2)), 422, 'invalid_model', /truncated/);
    });

    it('a method other than stored or deflate (bzip2): 422 naming it', async () => {
      const z = pyZip(
        path.join(tmp, 'bz.zip'),
        src,
        'with zipfile.ZipFile(out, "w", zipfile.ZIP_BZIP2) as z:\n    z.write(os.path.join(src, "gpu.gltf"), "gpu.gltf")',
      );
      await refused(z, 422, 'invalid_model', /compressed with bzip2: only stored and deflate/);
    });
  });
});
