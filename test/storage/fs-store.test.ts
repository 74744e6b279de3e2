import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { InvalidArtifactKeyError } from '../../src/storage/artifact-key.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { FsArtifactStore } from '../../src/storage/fs-store.js';
import { ArtifactNotFoundError } from '../../src/storage/storage-errors.js';

async function bytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

/** Every file under `dir`, relative, including dot-named ones. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const KEY = 'renders/ab/abcdef0123456789/video.mp4';

let tmp: string;
let store: FsArtifactStore;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-fs-store-'));
  store = await FsArtifactStore.open(path.join(tmp, 'artifacts'));
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('FsArtifactStore', () => {
  it('stores a buffer and reports it', async () => {
    const data = randomBytes(10_000);
    const put = await store.putBuffer(KEY, data, 'video/mp4');
    expect(put).toMatchObject({ key: KEY, size: 10_000, contentType: 'video/mp4' });
    expect(put.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const st = await store.stat(KEY);
    expect(st).toMatchObject({ key: KEY, size: 10_000, contentType: 'video/mp4', etag: put.etag });
    expect(st!.lastModified).toBeInstanceOf(Date);
    expect((await bytes(await store.read(KEY))).equals(data)).toBe(true);
    expect(await fs.readFile(store.pathOf(KEY))).toEqual(data);
  });

  it('stores a file, and the etag follows the content', async () => {
    const src = path.join(tmp, 'sprite.webp');
    await fs.writeFile(src, 'RIFF....WEBP');
    const a = await store.putFile('renders/cd/cdef/sprite.webp', src, 'image/webp');
    expect(a).toMatchObject({ size: 12, contentType: 'image/webp' });
    const again = await store.putBuffer('other/sprite.webp', Buffer.from('RIFF....WEBP'), 'image/webp');
    expect(again.etag).toBe(a.etag);
    const b = await store.putBuffer('renders/cd/cdef/sprite.webp', Buffer.from('RIFF...!WEBP'), 'image/webp');
    expect(b.etag).not.toBe(a.etag);
    expect((await store.stat('renders/cd/cdef/sprite.webp'))!.etag).toBe(b.etag);
    expect(await text(await store.read('renders/cd/cdef/sprite.webp'))).toBe('RIFF...!WEBP');
  });

  it('reads inclusive byte ranges', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    await store.putBuffer('r/range.bin', data, 'application/octet-stream');
    expect((await bytes(await store.read('r/range.bin', { start: 0, end: 9 }))).toString()).toBe('0123456789');
    expect((await bytes(await store.read('r/range.bin', { start: 5, end: 5 }))).toString()).toBe('5');
    expect((await bytes(await store.read('r/range.bin', { start: 19, end: 19 }))).toString()).toBe('j');
    await expect(store.read('r/range.bin', { start: 20, end: 25 })).rejects.toThrow(RangeError);
    await expect(store.read('r/range.bin', { start: 5, end: 4 })).rejects.toThrow(RangeError);
    await expect(store.read('r/range.bin', { start: 0, end: 20 })).rejects.toThrow(RangeError);
  });

  it('reports missing keys as null / ArtifactNotFoundError, and deletes', async () => {
    expect(await store.stat('nope/missing.mp4')).toBeNull();
    await expect(store.read('nope/missing.mp4')).rejects.toBeInstanceOf(ArtifactNotFoundError);
    await store.delete('nope/missing.mp4');
    // a folder is not an artifact
    expect(await store.stat('renders/ab')).toBeNull();
    await expect(store.read('renders/ab')).rejects.toBeInstanceOf(ArtifactNotFoundError);

    await store.putBuffer('d/gone.png', Buffer.from('png'), 'image/png');
    await store.delete('d/gone.png');
    expect(await store.stat('d/gone.png')).toBeNull();
    expect(await listFiles(store.root)).not.toContain(path.join('.meta', 'd', 'gone.png.json'));
  });

  it.each([
    ['../escape.mp4'],
    ['renders/../../etc/passwd'],
    ['/etc/passwd'],
    ['a//b.mp4'],
    ['a/./b.mp4'],
    ['a/b/'],
    ['.meta/renders/x.json'],
    ['a/.hidden'],
    ['a b.mp4'],
    ['a\\b.mp4'],
    ['a/b.mp4?x=1'],
    ['vidéo.mp4'],
    [''],
    ['x'.repeat(600)],
  ])('rejects the key %j', async (key) => {
    await expect(store.putBuffer(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidArtifactKeyError);
    await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidArtifactKeyError);
    await expect(store.read(key)).rejects.toBeInstanceOf(InvalidArtifactKeyError);
    await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidArtifactKeyError);
    await expect(store.url(key, 'http://x')).rejects.toBeInstanceOf(InvalidArtifactKeyError);
  });

  it('never shows a half-written file under its key', async () => {
    const key = 'atomic/big.mp4';
    const size = 24 * 1024 * 1024;
    const src = path.join(tmp, 'big.mp4');
    await fs.writeFile(src, randomBytes(size));
    let done = false;
    const put = store.putFile(key, src, 'video/mp4').finally(() => (done = true));
    const seen = new Set<number>();
    let absent = 0;
    while (!done) {
      const st = await fs.stat(store.pathOf(key)).catch(() => null);
      if (st) seen.add(st.size);
      else absent++;
      await new Promise((r) => setImmediate(r));
    }
    await put;
    // the key was watched while the copy ran, and only ever showed nothing or the whole file
    expect(absent).toBeGreaterThan(1);
    expect([...seen].filter((s) => s !== size)).toEqual([]);
    expect((await store.stat(key))!.size).toBe(size);
    // no temp files left behind, next to the data or the metadata
    expect((await listFiles(store.root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves the old artifact intact when a put fails', async () => {
    const key = 'atomic/keep.png';
    await store.putBuffer(key, Buffer.from('old'), 'image/png');
    await expect(store.putFile(key, path.join(tmp, 'does-not-exist.png'), 'image/png')).rejects.toThrow(/ENOENT/);
    expect(await text(await store.read(key))).toBe('old');
    expect((await store.stat(key))!.size).toBe(3);
    await expect(
      store.putFile('atomic/never.png', path.join(tmp, 'does-not-exist.png'), 'image/png'),
    ).rejects.toThrow();
    expect(await store.stat('atomic/never.png')).toBeNull();
    expect((await listFiles(store.root)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('serves a file placed by hand, with a type from its extension', async () => {
    await fs.mkdir(path.join(store.root, 'manual'), { recursive: true });
    await fs.writeFile(path.join(store.root, 'manual', 'shot.webp'), 'abc');
    const st = await store.stat('manual/shot.webp');
    expect(st).toMatchObject({ size: 3, contentType: 'image/webp' });
    expect(st!.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
  });

  it('ignores metadata that does not describe the file beside it', async () => {
    const key = 'stale/a.png';
    const put = await store.putBuffer(key, Buffer.from('first'), 'image/x-custom');
    // replaced behind the store's back (e.g. a crash between the sidecar and data renames)
    await fs.writeFile(store.pathOf(key) + '.new', 'second!');
    await fs.rename(store.pathOf(key) + '.new', store.pathOf(key));
    const st = await store.stat(key);
    expect(st).toMatchObject({ size: 7, contentType: 'image/png' });
    expect(st!.etag).not.toBe(put.etag);
  });

  it('builds URLs under /artifacts', async () => {
    expect(await store.url(KEY, 'https://api.example.com')).toBe(`https://api.example.com/artifacts/${KEY}`);
    expect(await store.url(KEY, 'https://api.example.com/')).toBe(`https://api.example.com/artifacts/${KEY}`);
  });
});

describe('openArtifactStore', () => {
  it('defaults to <dataDir>/artifacts', async () => {
    const s = await openArtifactStore(loadConfig({ dataDir: tmp }, {}));
    expect(s.kind).toBe('fs');
    expect((s as FsArtifactStore).root).toBe(path.join(tmp, 'artifacts'));
  });

  it('takes a file:// STORAGE_URL', async () => {
    const dir = path.join(tmp, 'elsewhere');
    const s = await openArtifactStore(loadConfig({ dataDir: tmp }, { STORAGE_URL: `file://${dir}` }));
    expect((s as FsArtifactStore).root).toBe(dir);
    await fs.access(dir);
  });

  it('says which credentials an s3:// STORAGE_URL lacks', async () => {
    await expect(
      openArtifactStore(loadConfig({ dataDir: tmp }, { STORAGE_URL: 's3://my-bucket/renders' })),
    ).rejects.toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
  });

  it('rejects other STORAGE_URLs in the config', () => {
    expect(() => loadConfig({ dataDir: tmp }, { STORAGE_URL: 'http://example.com' })).toThrow(
      /storageUrl \(env STORAGE_URL\)/,
    );
    expect(() => loadConfig({ dataDir: tmp }, { STORAGE_URL: 's3://b' })).toThrow(/storageUrl/);
  });

  it('rejects an s3:// prefix that breaks the key rules', async () => {
    const cfg = loadConfig(
      { dataDir: tmp },
      { STORAGE_URL: 's3://my-bucket/a b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' },
    );
    await expect(openArtifactStore(cfg)).rejects.toThrow(/prefix/);
  });

  it('reads AWS_* credentials when the S3_* ones are unset, preferring S3_*', () => {
    const cfg = loadConfig(
      {},
      { AWS_ACCESS_KEY_ID: 'aws', AWS_SECRET_ACCESS_KEY: 'awssecret', S3_SECRET_ACCESS_KEY: 's3secret' },
    );
    expect(cfg.s3AccessKeyId).toBe('aws');
    expect(cfg.s3SecretAccessKey).toBe('s3secret');
    expect(cfg.s3Region).toBe('us-east-1');
    expect(cfg.s3PresignSeconds).toBe(3600);
  });
});
