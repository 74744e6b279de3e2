/**
 * The S3 store against a real S3-protocol server (s3rver, on a random port, data in a temp dir).
 * s3rver checks the access key but not SigV4 signatures themselves; sigv4.test.ts holds the
 * signer to AWS's documented examples.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { InvalidArtifactKeyError } from '../../src/storage/artifact-key.js';
import { openArtifactStore } from '../../src/storage/open-artifact-store.js';
import { S3ArtifactStore, type S3StoreOptions } from '../../src/storage/s3-store.js';
import { ArtifactNotFoundError, StorageError } from '../../src/storage/storage-errors.js';
import { startS3rver } from '../helpers/s3-server.js';

const BUCKET = 'rf-artifacts';
// s3rver's built-in account
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

async function bytes(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

let tmp: string;
let server: S3rver;
let endpoint: string;
let store: S3ArtifactStore;
let options: S3StoreOptions;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-s3-store-'));
  const started = await startS3rver(tmp, BUCKET);
  server = started.server;
  const { port } = started;
  endpoint = `http://127.0.0.1:${port}`;
  const cfg = loadConfig(
    { dataDir: tmp },
    {
      STORAGE_URL: `s3://${BUCKET}/farm/v1`,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_PRESIGN_SECONDS: '600',
    },
  );
  const opened = await openArtifactStore(cfg);
  expect(opened.kind).toBe('s3');
  store = opened as S3ArtifactStore;
  options = store.opts;
});

afterAll(async () => {
  await server?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('S3ArtifactStore', () => {
  it('was configured from STORAGE_URL and the S3_* keys', () => {
    expect(options).toMatchObject({
      bucket: BUCKET,
      prefix: 'farm/v1',
      endpoint,
      forcePathStyle: true,
      presignSeconds: 600,
    });
    expect(store.objectKey('a/b.mp4')).toBe('farm/v1/a/b.mp4');
  });

  it('puts a file, stats it, reads it whole and in ranges, deletes it', async () => {
    const key = 'renders/ab/abcdef/video.mp4';
    const data = randomBytes(300_000);
    const src = path.join(tmp, 'video.mp4');
    await fs.writeFile(src, data);
    const put = await store.putFile(key, src, 'video/mp4');
    expect(put).toMatchObject({ key, size: data.length, contentType: 'video/mp4' });
    expect(put.etag).toMatch(/^"[0-9a-f]{32}"$/);

    const st = await store.stat(key);
    expect(st).toMatchObject({ key, size: data.length, contentType: 'video/mp4', etag: put.etag });
    expect((await bytes(await store.read(key))).equals(data)).toBe(true);
    expect((await bytes(await store.read(key, { start: 0, end: 99 }))).equals(data.subarray(0, 100))).toBe(true);
    expect((await bytes(await store.read(key, { start: 299_990, end: 299_999 }))).equals(data.subarray(299_990))).toBe(
      true,
    );

    // stored under the prefix, where the bucket's other users can find it
    const onDisk = await fs.readdir(path.join(tmp, 's3rver', BUCKET, 'farm', 'v1', 'renders', 'ab', 'abcdef'));
    expect(onDisk.some((f) => f.startsWith('video.mp4'))).toBe(true);

    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.read(key)).rejects.toBeInstanceOf(ArtifactNotFoundError);
    await store.delete(key); // deleting nothing is fine
  });

  it('puts a buffer and replaces an object in place', async () => {
    const key = 'renders/cd/cdef/sprite.webp';
    const a = await store.putBuffer(key, Buffer.from('first sprite'), 'image/webp');
    const b = await store.putBuffer(key, Buffer.from('second sprite!'), 'image/webp');
    expect(b.etag).not.toBe(a.etag);
    expect(await store.stat(key)).toMatchObject({ size: 14, contentType: 'image/webp', etag: b.etag });
    expect((await bytes(await store.read(key))).toString()).toBe('second sprite!');
  });

  it('hands out presigned URLs that plain fetch can download', async () => {
    const key = 'renders/ef/ef01/screenshot.png';
    const data = randomBytes(5_000);
    await store.putBuffer(key, data, 'image/png');
    const url = await store.url(key, 'http://ignored.example');
    const u = new URL(url);
    expect(`${u.origin}${u.pathname}`).toBe(`${endpoint}/${BUCKET}/farm/v1/${key}`);
    expect(u.searchParams.get('X-Amz-Expires')).toBe('600');
    expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    // stable within a window, so a polling client keeps one cacheable URL (two tries: a
    // window may end between two calls)
    const [again, third] = [await store.url(key, ''), await store.url(key, '')];
    expect(again === url || again === third).toBe(true);

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);

    const ranged = await fetch(url, { headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(data.subarray(10, 20))).toBe(true);
  });

  it('hands out public URLs when the bucket is public', async () => {
    const pub = new S3ArtifactStore({ ...options, publicUrl: `${endpoint}/${BUCKET}/` });
    const key = 'renders/12/1234/thumb.webp';
    await pub.putBuffer(key, Buffer.from('webp bytes'), 'image/webp');
    const url = await pub.url(key, '');
    expect(url).toBe(`${endpoint}/${BUCKET}/farm/v1/${key}`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(await res.text()).toBe('webp bytes');
  });

  it('uses virtual-hosted URLs on AWS', async () => {
    const aws = new S3ArtifactStore({
      ...options,
      endpoint: undefined,
      forcePathStyle: false,
      region: 'eu-west-1',
      prefix: '',
    });
    const u = new URL(await aws.url('renders/a/b.mp4', ''));
    expect(u.host).toBe(`${BUCKET}.s3.eu-west-1.amazonaws.com`);
    expect(u.pathname).toBe('/renders/a/b.mp4');
    expect(u.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
  });

  it('reports S3 errors with their code', async () => {
    const wrong = new S3ArtifactStore({ ...options, credentials: { accessKeyId: 'NOPE', secretAccessKey: 'x' } });
    const err = await wrong.putBuffer('x/y.bin', Buffer.from('x'), 'application/octet-stream').catch((e) => e);
    expect(err).toBeInstanceOf(StorageError);
    expect(err).toMatchObject({ s3Status: 403, s3Code: 'InvalidAccessKeyId' });
    const noBucket = new S3ArtifactStore({ ...options, bucket: 'no-such-bucket' });
    await expect(noBucket.putBuffer('x/y.bin', Buffer.from('x'), 'application/octet-stream')).rejects.toMatchObject({
      s3Code: 'NoSuchBucket',
    });
  });

  it('rejects bad keys before any request', async () => {
    await expect(store.putBuffer('../x', Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
      InvalidArtifactKeyError,
    );
    await expect(store.stat('/abs')).rejects.toBeInstanceOf(InvalidArtifactKeyError);
    await expect(store.url('a//b', '')).rejects.toBeInstanceOf(InvalidArtifactKeyError);
  });
});
