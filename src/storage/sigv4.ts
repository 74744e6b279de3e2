/**
 * AWS Signature Version 4 for S3 (header signing and query presigning), on node:crypto.
 * Written here instead of pulling in the AWS SDK (tens of packages, megabytes) for the four
 * S3 calls the store makes; tested against AWS's documented S3 examples.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
import { createHmac } from 'node:crypto';
import { sha256Hex } from './content-hash.js';

/** Credentials; `sessionToken` only for temporary (STS) credentials. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Who signs, for which region and service, and when. */
export interface SigningContext {
  credentials: AwsCredentials;
  region: string;
  /** `s3` for S3 */
  service: string;
  /** defaults to now */
  date?: Date;
}

/** A request to sign. `url` must be percent-encoded exactly as it will be sent. */
export interface RequestToSign {
  method: string;
  url: URL;
  /** headers to sign besides host and x-amz-date; names in any case */
  headers?: Record<string, string>;
}

/** Payload hash of a body that is not hashed (presigned URLs, streamed bodies). */
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
/** SHA-256 of the empty body, for GET, HEAD and DELETE. */
export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const ALGORITHM = 'AWS4-HMAC-SHA256';

const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** `20130524T000000Z` */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** RFC 3986 percent-encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Encodes each segment of an object path, keeping the slashes (S3 does not double-encode). */
export function encodePath(pathname: string): string {
  return pathname.split('/').map(uriEncode).join('/');
}

// S3 signs the path as sent: decode what the URL holds, then encode it the canonical way
function canonicalPath(url: URL): string {
  return (
    url.pathname
      .split('/')
      .map((s) => uriEncode(decodeURIComponent(s)))
      .join('/') || '/'
  );
}

function canonicalQuery(params: Iterable<[string, string]>): string {
  return [...params]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

function normaliseHeaders(url: URL, headers: Record<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) out.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  // URL.host already drops the scheme's default port, as HTTP clients do in the Host header
  out.set('host', url.host);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function signature(
  ctx: SigningContext,
  stamp: string,
  method: string,
  path: string,
  query: string,
  headers: Map<string, string>,
  payloadHash: string,
): { signedHeaders: string; signature: string; scope: string } {
  const day = stamp.slice(0, 8);
  const scope = `${day}/${ctx.region}/${ctx.service}/aws4_request`;
  const signedHeaders = [...headers.keys()].join(';');
  const canonical = [
    method.toUpperCase(),
    path,
    query,
    ...[...headers].map(([k, v]) => `${k}:${v}`),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const stringToSign = [ALGORITHM, stamp, scope, sha256Hex(canonical)].join('\n');
  let key = hmac(`AWS4${ctx.credentials.secretAccessKey}`, day);
  for (const part of [ctx.region, ctx.service, 'aws4_request']) key = hmac(key, part);
  return { signedHeaders, signature: createHmac('sha256', key).update(stringToSign).digest('hex'), scope };
}

/**
 * Headers for a header-signed request: the given ones plus `host`, `x-amz-date`,
 * `x-amz-security-token` (with a session token) and `authorization`. For S3 the caller also
 * passes `x-amz-content-sha256` (equal to `payloadHash`), which S3 requires.
 */
export function signHeaders(req: RequestToSign, payloadHash: string, ctx: SigningContext): Record<string, string> {
  const stamp = amzDate(ctx.date ?? new Date());
  const extra: Record<string, string> = { 'x-amz-date': stamp };
  if (ctx.credentials.sessionToken) extra['x-amz-security-token'] = ctx.credentials.sessionToken;
  const headers = normaliseHeaders(req.url, { ...req.headers, ...extra });
  const sig = signature(
    ctx,
    stamp,
    req.method,
    canonicalPath(req.url),
    canonicalQuery(req.url.searchParams),
    headers,
    payloadHash,
  );
  const out = Object.fromEntries(headers);
  out.authorization = `${ALGORITHM} Credential=${ctx.credentials.accessKeyId}/${sig.scope}, SignedHeaders=${sig.signedHeaders}, Signature=${sig.signature}`;
  return out;
}

/**
 * A presigned URL (auth in the query string) valid for `expiresSeconds` from the signing date.
 * Anyone holding it can make that one request, with no credentials of their own.
 */
export function presignUrl(req: RequestToSign, expiresSeconds: number, ctx: SigningContext): string {
  const stamp = amzDate(ctx.date ?? new Date());
  const headers = normaliseHeaders(req.url, req.headers ?? {});
  const params: [string, string][] = [...req.url.searchParams];
  params.push(
    ['X-Amz-Algorithm', ALGORITHM],
    [
      'X-Amz-Credential',
      `${ctx.credentials.accessKeyId}/${stamp.slice(0, 8)}/${ctx.region}/${ctx.service}/aws4_request`,
    ],
    ['X-Amz-Date', stamp],
    ['X-Amz-Expires', String(expiresSeconds)],
    ['X-Amz-SignedHeaders', [...headers.keys()].join(';')],
  );
  if (ctx.credentials.sessionToken) params.push(['X-Amz-Security-Token', ctx.credentials.sessionToken]);
  const path = canonicalPath(req.url);
  // the URL carries the query in canonical form, so what S3 re-derives is exactly what was signed
  const query = canonicalQuery(params);
  const sig = signature(ctx, stamp, req.method, path, query, headers, UNSIGNED_PAYLOAD);
  return `${req.url.protocol}//${req.url.host}${path}?${query}&X-Amz-Signature=${sig.signature}`;
}
