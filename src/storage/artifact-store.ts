/**
 * The artifact store: where workers put rendered files (MP4, WebP sprites, screenshots,
 * thumbnails) and where clients download them from by URL. Two backends share this
 * interface: the filesystem (default, served by the API's `/artifacts/*` route) and an
 * S3-compatible bucket (public or presigned URLs). open-artifact-store.ts opens the
 * configured one.
 */

/** What a store knows about one stored artifact. */
export interface StoredArtifact {
  key: string;
  /** bytes */
  size: number;
  contentType: string;
  /** quoted entity tag, ready for the ETag header, e.g. `"3q2-7w"` or `W/"..."` */
  etag: string;
  lastModified?: Date;
}

/** One entry of a listing: enough to count bytes and find what no row refers to. */
export interface ListedArtifact {
  key: string;
  size: number;
  lastModified?: Date;
}

/** Inclusive byte range, as in HTTP: `{ start: 0, end: 9 }` is the first ten bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Keys are validated (see artifact-key.ts); an invalid key throws InvalidArtifactKeyError.
 * Writes are atomic: a reader sees the old object, the new one, or nothing, never a part.
 */
export interface ArtifactStore {
  readonly kind: 'fs' | 's3';
  /** Stores the file at `localPath` under `key`, replacing what was there. */
  putFile(key: string, localPath: string, contentType: string): Promise<StoredArtifact>;
  /** Stores `buf` under `key`, replacing what was there. */
  putBuffer(key: string, buf: Uint8Array, contentType: string): Promise<StoredArtifact>;
  /** The artifact's metadata, or null when nothing is stored under `key`. */
  stat(key: string): Promise<StoredArtifact | null>;
  /**
   * The artifact's bytes, or the inclusive `range` of them (the caller checks it against
   * `stat().size`). Throws ArtifactNotFoundError when nothing is stored under `key`.
   */
  read(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream>;
  /** Removes the artifact; no error when there is none. */
  delete(key: string): Promise<void>;
  /**
   * Removes many artifacts, in batches (S3: one DeleteObjects request per 1000 keys); keys that
   * are not there are no error. Throws StorageError naming the first key that could not go.
   */
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Every artifact whose key starts with `prefix` (e.g. `renders/`), in pages; no order promised. */
  list(prefix: string): AsyncIterable<ListedArtifact>;
  /**
   * A URL a client can GET the artifact from. `baseUrl` is the API's public base (no trailing
   * slash); the fs store builds `${baseUrl}/artifacts/<key>` from it, S3 ignores it.
   */
  url(key: string, baseUrl: string): Promise<string>;
}
