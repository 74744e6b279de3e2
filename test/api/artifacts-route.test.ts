import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMiddleware, notFoundHandler } from '../../src/http/errors.js';
import { artifactRoutes } from '../../src/api/routes/artifacts.js';
import { createLogger } from '../../src/log.js';
import { FsArtifactStore } from '../../src/storage/fs-store.js';
import { isErrorBody } from '../helpers/api.js';

const VIDEO = 'renders/ab/abcdef/video.mp4';
const video = randomBytes(100_000);

let tmp: string;
let server: http.Server;
let base: string;
let etag: string;

/** A request with the path sent exactly as written (fetch would normalise `..` and `%2e`). */
function raw(
  method: string,
  rawPath: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-artifacts-route-'));
  const store = await FsArtifactStore.open(path.join(tmp, 'artifacts'));
  etag = (await store.putBuffer(VIDEO, video, 'video/mp4')).etag;
  await store.putBuffer('renders/ab/abcdef/sprite.webp', Buffer.from('RIFF0000WEBPVP8 '), 'image/webp');
  await store.putBuffer('renders/ab/abcdef/screenshot.png', Buffer.from('\x89PNG\r\n\x1a\n'), 'image/png');
  await store.putBuffer('renders/ab/abcdef/empty.bin', Buffer.alloc(0), 'application/octet-stream');
  const app = express();
  app.use(artifactRoutes({ store, log: createLogger({ logLevel: 'silent' }) }));
  app.use(notFoundHandler);
  app.use(errorMiddleware(createLogger({ logLevel: 'silent' })));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('GET /artifacts/*key', () => {
  it('serves the bytes with type, length, validators and year-long caching', async () => {
    const res = await fetch(`${base}/artifacts/${VIDEO}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(video)).toBe(true);
  });

  it.each([
    ['renders/ab/abcdef/sprite.webp', 'image/webp'],
    ['renders/ab/abcdef/screenshot.png', 'image/png'],
  ])('serves %s as %s', async (key, type) => {
    const res = await fetch(`${base}/artifacts/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    await res.arrayBuffer();
  });

  it('serves an empty artifact', async () => {
    const res = await fetch(`${base}/artifacts/renders/ab/abcdef/empty.bin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('0');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers If-None-Match with 304', async () => {
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { 'if-none-match': inm } });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect(await res.text()).toBe('');
    }
    const miss = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { 'if-none-match': '"other"' } });
    expect(miss.status).toBe(200);
    await miss.arrayBuffer();
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=1000-1000', 1000, 1000],
    ['bytes=99990-', 99990, 99999],
    ['bytes=-10', 99990, 99999],
    ['bytes=99000-200000', 99000, 99999],
    ['bytes=-200000', 0, 99999],
  ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
    const res = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${video.length}`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
  });

  it.each(['bytes=100000-', 'bytes=200000-300000', 'bytes=-0'])(
    'answers unsatisfiable Range %s with 416',
    async (range) => {
      const res = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { range } });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
      const body = await res.json();
      expect(isErrorBody(body)).toBe(true);
      expect(body.error).toBe('range_not_satisfiable');
    },
  );

  it.each(['bytes=0-1,5-6', 'items=0-5', 'bytes=5-1', 'bytes=x-y'])(
    'ignores the Range %s and sends everything',
    async (range) => {
      const res = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { range } });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBe(video.length);
    },
  );

  it('applies Range only while If-Range matches', async () => {
    const same = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { range: 'bytes=0-9', 'if-range': etag } });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    const changed = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { range: 'bytes=0-9', 'if-range': '"old"' } });
    expect(changed.status).toBe(200);
    expect((await changed.arrayBuffer()).byteLength).toBe(video.length);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await raw('HEAD', `/artifacts/${VIDEO}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(video.length));
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers.etag).toBe(etag);
    expect(res.body).toBe('');
    const ranged = await fetch(`${base}/artifacts/${VIDEO}`, { method: 'HEAD', headers: { range: 'bytes=10-19' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it.each([
    '/artifacts/renders/ab/abcdef/missing.mp4',
    '/artifacts/renders/ab',
    '/artifacts/../../etc/passwd',
    '/artifacts/renders/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/artifacts/renders%2F..%2F..%2Fetc%2Fpasswd',
    '/artifacts/.meta/renders/ab/abcdef/video.mp4.json',
    '/artifacts/renders/ab/abcdef/.video.mp4.tmp',
    '/artifacts/renders//ab/abcdef/video.mp4',
    '/artifacts/%00',
    '/artifacts/',
  ])('answers %s with a 404 JSON error', async (p) => {
    const res = await raw('GET', p);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = JSON.parse(res.body);
    expect(isErrorBody(body)).toBe(true);
    expect(['artifact_not_found', 'not_found']).toContain(body.error);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('is public: no Authorization needed, none consulted', async () => {
    const res = await fetch(`${base}/artifacts/${VIDEO}`, { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
