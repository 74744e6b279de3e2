/**
 * S3-compatible artifact store (AWS S3, MinIO, Cloudflare R2, ...) for `STORAGE_URL=s3://bucket/prefix`.
 * Plain fetch plus our own SigV4 signer (sigv4.ts). A PUT of a whole object is atomic in S3:
 * readers see the old object or the new one, so no temp-key dance is needed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat as fsStat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { assertArtifactKey } from './artifact-key.js';
import type { ArtifactStore, ByteRange, ListedArtifact, StoredArtifact } from './artifact-store.js';
import { checkRange } from './byte-range.js';
import { ArtifactNotFoundError, StorageError } from './storage-errors.js';
import { sha256Hex } from './content-hash.js';
import { EMPTY_SHA256, encodePath, presignUrl, signHeaders, type AwsCredentials } from './sigv4.js';
import type { ReadableStream } from 'node:stream/web';

/** Keys are content-addressed: an object never changes, so caches may keep it for a year. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** HEAD and DELETE are small; uploads and downloads are not bounded (large files). */
const SMALL_REQUEST_TIMEOUT_MS = 30_000;
const ATTEMPTS = 3;
/** DeleteObjects takes at most 1000 keys a request; ListObjects returns at most 1000 a page */
const S3_BATCH = 1000;

/** The few XML entities S3 escapes in listings and errors. */
function unescapeXml(s: string): string {
  return s.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!,
  );
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The text of each `<tag>` directly inside the XML fragments matched by `block`. */
function xmlBlocks(xml: string, block: string): string[] {
  return [...xml.matchAll(new RegExp(`<${block}>([\\s\\S]*?)</${block}>`, 'g'))].map((m) => m[1]!);
}
const xmlField = (xml: string, tag: string) => {
  const m = new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml);
  return m ? unescapeXml(m[1]!) : undefined;
};

/** Everything the S3 store needs; `fromConfig` fills it from the config. */
export interface S3StoreOptions {
  bucket: string;
  /** folder in the bucket, without slashes at the ends; '' for the bucket root */
  prefix: string;
  /** e.g. `http://127.0.0.1:9000`; default `https://s3.<region>.amazonaws.com` */
  endpoint?: string;
  region: string;
  credentials: AwsCredentials;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` */
  forcePathStyle: boolean;
  /** base URL of the public bucket (or CDN); the object key is appended. Unset: presigned URLs */
  publicUrl?: string;
  presignSeconds: number;
}

interface SendOptions {
  headers?: Record<string, string>;
  /** SHA-256 hex of the body, or EMPTY_SHA256 when there is none */
  payloadHash?: string;
  /** called once per attempt, so a retry gets a fresh stream */
  body?: () => BodyInit;
  timeoutMs?: number;
}

/** Artifact store on an S3-compatible bucket. */
export class S3ArtifactStore implements ArtifactStore {
  readonly kind = 's3' as const;

  constructor(readonly opts: S3StoreOptions) {}

  /** Builds the store from STORAGE_URL's bucket and prefix and the s3* config keys. */
  static fromConfig(cfg: Config, bucket: string, prefix: string): S3ArtifactStore {
    if (!cfg.s3AccessKeyId || !cfg.s3SecretAccessKey) {
      throw new Error(
        `STORAGE_URL is ${cfg.storageUrl}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)`,
      );
    }
    return new S3ArtifactStore({
      bucket,
      prefix,
      endpoint: cfg.s3Endpoint,
      region: cfg.s3Region,
      credentials: {
        accessKeyId: cfg.s3AccessKeyId,
        secretAccessKey: cfg.s3SecretAccessKey,
        sessionToken: cfg.s3SessionToken,
      },
      // MinIO and most self-hosted servers have no per-bucket DNS names; AWS prefers virtual hosts
      forcePathStyle: cfg.s3ForcePathStyle ?? Boolean(cfg.s3Endpoint),
      publicUrl: cfg.s3PublicUrl,
      presignSeconds: cfg.s3PresignSeconds,
    });
  }

  /** The object's name in the bucket: prefix + key. */
  objectKey(key: string): string {
    assertArtifactKey(key);
    return this.opts.prefix ? `${this.opts.prefix}/${key}` : key;
  }

  private objectUrl(key: string): URL {
    return this.bucketUrl(`/${encodePath(this.objectKey(key))}`);
  }

  /** `path` (`/` for the bucket itself, `/<encoded object key>`) in the bucket, path-style or virtual-hosted. */
  private bucketUrl(objectPath: string, query?: Record<string, string>): URL {
    const endpoint = new URL(this.opts.endpoint ?? `https://s3.${this.opts.region}.amazonaws.com`);
    const base = endpoint.pathname.replace(/\/+$/, '');
    const url = this.opts.forcePathStyle
      ? new URL(`${endpoint.origin}${base}/${this.opts.bucket}${objectPath}`)
      : new URL(`${endpoint.protocol}//${this.opts.bucket}.${endpoint.host}${base}${objectPath}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    return url;
  }

  /** Signs and sends one request, retrying network failures and 5xx (all our calls are idempotent). */
  private async send(method: string, target: string | URL, o: SendOptions = {}): Promise<Response> {
    const url = typeof target === 'string' ? this.objectUrl(target) : target;
    const payloadHash = o.payloadHash ?? EMPTY_SHA256;
    for (let attempt = 1; ; attempt++) {
      const signed = signHeaders(
        { method, url, headers: { ...o.headers, 'x-amz-content-sha256': payloadHash } },
        payloadHash,
        { credentials: this.opts.credentials, region: this.opts.region, service: 's3' },
      );
      // fetch sets Host from the URL itself (the same value that was signed)
      delete signed.host;
      try {
        const res = await fetch(url, {
          method,
          headers: signed,
          body: o.body?.(),
          duplex: 'half',
          signal: o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : undefined,
        } as RequestInit);
        if (res.status < 500 || attempt >= ATTEMPTS) return res;
        await res.body?.cancel();
      } catch (err) {
        if (attempt >= ATTEMPTS) {
          throw new StorageError(`S3 ${method} ${url.host}${url.pathname} failed: ${(err as Error).message}`);
        }
      }
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  }

  private async fail(res: Response, what: string): Promise<never> {
    const text = await res.text().catch(() => '');
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
    throw new StorageError(
      `S3 ${what} failed: HTTP ${res.status}${code ? ` ${code}` : ''}${message ? `: ${message}` : ''}`,
      res.status,
      code,
    );
  }

  async putFile(key: string, localPath: string, contentType: string): Promise<StoredArtifact> {
    const { size } = await fsStat(localPath);
    // hashing first costs a second read, but lets S3 verify every byte it stores
    const hash = createHash('sha256');
    await pipeline(createReadStream(localPath), hash);
    const body = () => Readable.toWeb(createReadStream(localPath)) as unknown as BodyInit;
    return this.put(key, size, hash.digest('hex'), contentType, body);
  }

  async putBuffer(key: string, buf: Uint8Array, contentType: string): Promise<StoredArtifact> {
    return this.put(key, buf.byteLength, sha256Hex(buf), contentType, () => buf as BodyInit);
  }

  private async put(
    key: string,
    size: number,
    sha: string,
    contentType: string,
    body: () => BodyInit,
  ): Promise<StoredArtifact> {
    const res = await this.send('PUT', key, {
      // an explicit length keeps fetch from chunking the stream, which S3 rejects
      headers: { 'content-type': contentType, 'content-length': String(size), 'cache-control': CACHE_CONTROL },
      payloadHash: sha,
      body,
    });
    if (!res.ok) await this.fail(res, `PUT ${key}`);
    await res.body?.cancel();
    return { key, size, contentType, etag: res.headers.get('etag') ?? `"${sha}"`, lastModified: new Date() };
  }

  async stat(key: string): Promise<StoredArtifact | null> {
    const res = await this.send('HEAD', key, { timeoutMs: SMALL_REQUEST_TIMEOUT_MS });
    if (res.status === 404) return null;
    if (!res.ok) await this.fail(res, `HEAD ${key}`);
    const modified = res.headers.get('last-modified');
    return {
      key,
      size: Number(res.headers.get('content-length') ?? 0),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      etag: res.headers.get('etag') ?? '""',
      lastModified: modified ? new Date(modified) : undefined,
    };
  }

  async read(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    if (range) checkRange(range, Number.MAX_SAFE_INTEGER);
    const headers: Record<string, string> = range ? { range: `bytes=${range.start}-${range.end}` } : {};
    const res = await this.send('GET', key, { headers });
    if (res.status === 404) {
      await res.body?.cancel();
      throw new ArtifactNotFoundError(key);
    }
    if (res.status === 416) {
      await res.body?.cancel();
      throw new RangeError(`byte range ${range?.start}-${range?.end} is outside ${key}`);
    }
    if (!res.ok) await this.fail(res, `GET ${key}`);
    if (range && res.status !== 206) {
      await res.body?.cancel();
      throw new StorageError(`S3 GET ${key} ignored the Range header (HTTP ${res.status})`, res.status);
    }
    if (!res.body) throw new StorageError(`S3 GET ${key} returned no body`, res.status);
    return Readable.fromWeb(res.body as ReadableStream);
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key, { timeoutMs: SMALL_REQUEST_TIMEOUT_MS });
    if (!res.ok && res.status !== 404) await this.fail(res, `DELETE ${key}`);
    await res.body?.cancel();
  }

  /** DeleteObjects, 1000 keys a request, quiet (only failures are answered). */
  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += S3_BATCH) {
      const batch = keys.slice(i, i + S3_BATCH);
      const xml =
        '<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>' +
        batch.map((k) => `<Object><Key>${escapeXml(this.objectKey(k))}</Key></Object>`).join('') +
        '</Delete>';
      const body = Buffer.from(xml);
      const res = await this.send('POST', this.bucketUrl('/', { delete: '' }), {
        // S3 refuses a DeleteObjects without a body checksum
        headers: {
          'content-type': 'application/xml',
          'content-length': String(body.byteLength),
          'content-md5': createHash('md5').update(body).digest('base64'),
        },
        payloadHash: sha256Hex(body),
        body: () => body as BodyInit,
        timeoutMs: SMALL_REQUEST_TIMEOUT_MS,
      });
      if (!res.ok) await this.fail(res, `DeleteObjects (${batch.length} keys)`);
      const errors = xmlBlocks(await res.text(), 'Error');
      if (errors.length) {
        const first = errors[0]!;
        throw new StorageError(
          `S3 DeleteObjects could not delete ${errors.length} of ${batch.length} keys, first ${xmlField(first, 'Key')}: ${xmlField(first, 'Code') ?? ''} ${xmlField(first, 'Message') ?? ''}`.trim(),
          res.status,
          xmlField(first, 'Code'),
        );
      }
    }
  }

  /**
   * ListObjects under the store's prefix, a page (up to 1000 keys) at a time, each page starting
   * after the last key of the one before (`marker`). Version 1 of the call, which every
   * S3-compatible server answers: s3rver cannot make version 2's continuation tokens on
   * OpenSSL 3, and keys in lexicographic order need no token.
   */
  async *list(prefix: string): AsyncIterable<ListedArtifact> {
    const root = this.opts.prefix ? `${this.opts.prefix}/` : '';
    let marker: string | undefined;
    for (;;) {
      const query: Record<string, string> = { prefix: root + prefix, 'max-keys': String(S3_BATCH) };
      if (marker) query.marker = marker;
      const res = await this.send('GET', this.bucketUrl('/', query), { timeoutMs: SMALL_REQUEST_TIMEOUT_MS });
      if (!res.ok) await this.fail(res, `ListObjects ${prefix}`);
      const xml = await res.text();
      let last: string | undefined;
      for (const c of xmlBlocks(xml, 'Contents')) {
        const objectKey = xmlField(c, 'Key');
        if (!objectKey) continue;
        last = objectKey;
        if (!objectKey.startsWith(root)) continue;
        const modified = xmlField(c, 'LastModified');
        yield {
          key: objectKey.slice(root.length),
          size: Number(xmlField(c, 'Size') ?? 0),
          lastModified: modified ? new Date(modified) : undefined,
        };
      }
      if (xmlField(xml, 'IsTruncated') !== 'true' || !last) return;
      marker = xmlField(xml, 'NextMarker') ?? last;
    }
  }

  /**
   * The public URL, or a presigned GET. Presigning uses a signing time rounded down to half the
   * lifetime, so repeated calls (a client polling a job) return the same URL for a while and
   * browsers can cache the download; each URL stays valid for at least half the lifetime.
   */
  async url(key: string, _baseUrl?: string): Promise<string> {
    if (this.opts.publicUrl) return `${this.opts.publicUrl.replace(/\/+$/, '')}/${encodePath(this.objectKey(key))}`;
    const step = Math.max(1, Math.floor(this.opts.presignSeconds / 2)) * 1000;
    const signedAt = new Date(Math.floor(Date.now() / step) * step);
    return presignUrl({ method: 'GET', url: this.objectUrl(key) }, this.opts.presignSeconds, {
      credentials: this.opts.credentials,
      region: this.opts.region,
      service: 's3',
      date: signedAt,
    });
  }
}
