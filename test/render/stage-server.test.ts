/**
 * The stage server's frame POSTs over real HTTP: a frame sent whole, a large one sent in pieces
 * (`?offset=&total=`, as farm/src/capture/upload.ts sends rows over 16 MB) delivered once whole and in order
 * of bytes whatever the order of pieces, and a piece that does not fit refused with 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStageServer, type StageServer } from '../../src/render/stage-server.js';

describe('stage server frames', () => {
  let server: StageServer;
  const got: Array<[number, Buffer]> = [];
  beforeAll(async () => {
    server = await startStageServer({ html: '<html></html>', js: '' });
    server.onFrames('tok', async (i, b) => {
      got.push([i, b]);
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const post = (path: string, body: Uint8Array) =>
    fetch(`${server.url}${path}`, { method: 'POST', body: Buffer.from(body) }).then((r) => r.status);

  it('delivers a frame sent whole, and one sent in pieces once every piece is in', async () => {
    expect(await post('/frames/tok/0', new Uint8Array([1, 2, 3]))).toBe(204);
    const big = new Uint8Array(10_000).map((_, i) => i % 251);
    // pieces out of order: the last first
    expect(await post('/frames/tok/7?offset=6000&total=10000', big.subarray(6000))).toBe(204);
    expect(got.map(([i]) => i)).toEqual([0]);
    expect(await post('/frames/tok/7?offset=0&total=10000', big.subarray(0, 6000))).toBe(204);
    expect(got.map(([i]) => i)).toEqual([0, 7]);
    expect(Buffer.compare(got[1]![1], Buffer.from(big))).toBe(0);
  });

  it('refuses a piece that does not fit its frame', async () => {
    expect(await post('/frames/tok/8?offset=9000&total=10000', new Uint8Array(2000))).toBe(400);
    expect(await post('/frames/tok/8?offset=-1&total=10000', new Uint8Array(10))).toBe(400);
    expect(got.map(([i]) => i)).toEqual([0, 7]);
  });
});
