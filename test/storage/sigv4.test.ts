/**
 * AWS's documented S3 SigV4 examples (same credentials and date for all):
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html and
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/storage/content-hash.js';
import {
  EMPTY_SHA256,
  amzDate,
  presignUrl,
  signHeaders,
  uriEncode,
  type SigningContext,
} from '../../src/storage/sigv4.js';

const ctx: SigningContext = {
  credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
  region: 'us-east-1',
  service: 's3',
  date: new Date('2013-05-24T00:00:00Z'),
};
const BUCKET = 'https://examplebucket.s3.amazonaws.com';
const CREDENTIAL = 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request';

describe('signHeaders (AWS examples)', () => {
  it('GET Object with a Range', () => {
    const h = signHeaders(
      {
        method: 'GET',
        url: new URL(`${BUCKET}/test.txt`),
        headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256 },
      },
      EMPTY_SHA256,
      ctx,
    );
    expect(h.authorization).toBe(
      `${CREDENTIAL}, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41`,
    );
    expect(h['x-amz-date']).toBe('20130524T000000Z');
    expect(h.host).toBe('examplebucket.s3.amazonaws.com');
  });

  it('PUT Object (path with $, a Date header, a storage class)', () => {
    const body = 'Welcome to Amazon S3.';
    const hash = sha256Hex(body);
    expect(hash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const h = signHeaders(
      {
        method: 'PUT',
        url: new URL(`${BUCKET}/test$file.text`),
        headers: {
          Date: 'Fri, 24 May 2013 00:00:00 GMT',
          'x-amz-storage-class': 'REDUCED_REDUNDANCY',
          'x-amz-content-sha256': hash,
        },
      },
      hash,
      ctx,
    );
    expect(h.authorization).toBe(
      `${CREDENTIAL}, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd`,
    );
  });

  it('GET Bucket Lifecycle (a valueless query parameter)', () => {
    const h = signHeaders(
      { method: 'GET', url: new URL(`${BUCKET}/?lifecycle`), headers: { 'x-amz-content-sha256': EMPTY_SHA256 } },
      EMPTY_SHA256,
      ctx,
    );
    expect(h.authorization).toMatch(/, Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543$/);
  });

  it('GET Bucket (query parameters sorted)', () => {
    const h = signHeaders(
      {
        method: 'GET',
        url: new URL(`${BUCKET}/?max-keys=2&prefix=J`),
        headers: { 'x-amz-content-sha256': EMPTY_SHA256 },
      },
      EMPTY_SHA256,
      ctx,
    );
    expect(h.authorization).toMatch(/, Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/);
  });

  it('signs a session token as x-amz-security-token', () => {
    const h = signHeaders({ method: 'GET', url: new URL(`${BUCKET}/test.txt`), headers: {} }, EMPTY_SHA256, {
      ...ctx,
      credentials: { ...ctx.credentials, sessionToken: 'tok' },
    });
    expect(h['x-amz-security-token']).toBe('tok');
    expect(h.authorization).toContain('SignedHeaders=host;x-amz-date;x-amz-security-token,');
  });
});

describe('presignUrl (AWS example)', () => {
  it('GET test.txt for 24 hours', () => {
    expect(presignUrl({ method: 'GET', url: new URL(`${BUCKET}/test.txt`) }, 86400, ctx)).toBe(
      `${BUCKET}/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404`,
    );
  });

  it('keeps a non-default port in the signed host', () => {
    const a = presignUrl({ method: 'GET', url: new URL('http://127.0.0.1:9000/b/k') }, 60, ctx);
    const b = presignUrl({ method: 'GET', url: new URL('http://127.0.0.1:9001/b/k') }, 60, ctx);
    expect(a.startsWith('http://127.0.0.1:9000/b/k?')).toBe(true);
    expect(new URL(a).searchParams.get('X-Amz-Signature')).not.toBe(new URL(b).searchParams.get('X-Amz-Signature'));
  });
});

describe('helpers', () => {
  it('formats dates and encodes like RFC 3986', () => {
    expect(amzDate(new Date('2026-09-25T15:04:05.123Z'))).toBe('20260925T150405Z');
    expect(uriEncode("a b/c~d*e!'()")).toBe('a%20b%2Fc~d%2Ae%21%27%28%29');
  });
});
