/**
 * Filesystem artifact store: `<root>/<key>` holds the bytes, `<root>/.meta/<key>.json` the
 * content type and a content hash. The API serves it at `/artifacts/<key>` (routes/artifacts.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, opendir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ensureDir } from '../ensure-dir.js';
import { assertArtifactKey } from './artifact-key.js';
import type { ArtifactStore, ByteRange, ListedArtifact, StoredArtifact } from './artifact-store.js';
import { contentTypeFor } from './content-types.js';
import { ArtifactNotFoundError } from './storage-errors.js';
import { checkRange } from './byte-range.js';

/** Keys cannot start a segment with a dot, so this folder and the temp files are unreachable. */
const META_DIR = '.meta';

/**
 * The sidecar. It describes one exact file: size, mtime and inode are recorded before the
 * rename that publishes the file, and the rename keeps all three, so a sidecar that does not
 * match the file beside it (a replace in progress, a crash between the two renames, a file
 * copied in by hand) is detected and ignored rather than served with the wrong ETag.
 */
interface Meta {
  v: 1;
  contentType: string;
  size: number;
  sha256: string;
  mtimeMs: number;
  ino: number;
}

/** unlinks at once in deleteMany: enough to hide a network mount's latency, few enough for any disk */
const DELETE_CONCURRENCY = 16;

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);
const isMissing = (err: unknown) => MISSING.has((err as NodeJS.ErrnoException)?.code ?? '');

/** Artifact store on a local (or network-mounted) directory. */
export class FsArtifactStore implements ArtifactStore {
  readonly kind = 'fs' as const;

  private constructor(readonly root: string) {}

  /** Creates `root` if needed; `setting` names where the path came from in an error. */
  static async open(root: string, setting = 'artifact store directory'): Promise<FsArtifactStore> {
    return new FsArtifactStore(await ensureDir(root, setting));
  }

  /** Absolute path of the file holding `key` (validated, so always inside root). */
  pathOf(key: string): string {
    return path.join(this.root, assertArtifactKey(key));
  }

  private metaPathOf(key: string): string {
    return path.join(this.root, META_DIR, `${key}.json`);
  }

  async putFile(key: string, localPath: string, contentType: string): Promise<StoredArtifact> {
    return this.write(key, contentType, () => createReadStream(localPath));
  }

  async putBuffer(key: string, buf: Uint8Array, contentType: string): Promise<StoredArtifact> {
    return this.write(key, contentType, () => Readable.from([buf]));
  }

  /**
   * Copies into a temp file in the destination folder (same filesystem, so rename is atomic),
   * hashing on the way, fsyncs it, writes the sidecar, then renames the data into place.
   */
  private async write(key: string, contentType: string, source: () => Readable): Promise<StoredArtifact> {
    const dest = this.pathOf(key);
    const metaDest = this.metaPathOf(key);
    const suffix = `${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    const tmp = path.join(path.dirname(dest), `.${path.basename(dest)}.${suffix}`);
    const metaTmp = path.join(path.dirname(metaDest), `.${path.basename(metaDest)}.${suffix}`);
    await Promise.all([
      mkdir(path.dirname(dest), { recursive: true }),
      mkdir(path.dirname(metaDest), { recursive: true }),
    ]);
    // opened here, not by createWriteStream: its lazy open could create the temp file after a
    // failed source was already cleaned up, leaving litter behind
    const fh = await open(tmp, 'wx', 0o644);
    let fhOpen = true;
    try {
      const hash = createHash('sha256');
      for await (const chunk of source() as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        // positional-less writes append; loop because a write may be partial
        for (let off = 0; off < chunk.byteLength; ) off += (await fh.write(chunk, off)).bytesWritten;
      }
      // without fsync a crash right after the rename could publish an empty or partial file
      await fh.sync();
      const st = await fh.stat();
      fhOpen = false;
      await fh.close();
      const sha256 = hash.digest('base64url');
      const meta: Meta = { v: 1, contentType, size: st.size, sha256, mtimeMs: st.mtimeMs, ino: st.ino };
      await writeFile(metaTmp, JSON.stringify(meta), { flag: 'wx', mode: 0o644 });
      await rename(metaTmp, metaDest);
      await rename(tmp, dest);
      return { key, size: st.size, contentType, etag: `"${sha256}"`, lastModified: st.mtime };
    } finally {
      if (fhOpen) await fh.close().catch(() => {});
      // after success both are gone already; after a failure nothing half-written stays behind
      await Promise.all([rm(tmp, { force: true }), rm(metaTmp, { force: true })]);
    }
  }

  async stat(key: string): Promise<StoredArtifact | null> {
    const file = this.pathOf(key);
    let st;
    try {
      st = await stat(file);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (!st.isFile()) return null;
    const meta = await this.readMeta(key);
    if (meta && meta.size === st.size && meta.mtimeMs === st.mtimeMs && meta.ino === st.ino) {
      return { key, size: st.size, contentType: meta.contentType, etag: `"${meta.sha256}"`, lastModified: st.mtime };
    }
    // no trustworthy sidecar: size + mtime + inode change with every replace (nginx does the same)
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}-${st.ino.toString(16)}"`;
    return { key, size: st.size, contentType: contentTypeFor(key), etag, lastModified: st.mtime };
  }

  private async readMeta(key: string): Promise<Meta | null> {
    try {
      const meta = JSON.parse(await readFile(this.metaPathOf(key), 'utf8')) as Meta;
      return meta?.v === 1 && typeof meta.contentType === 'string' ? meta : null;
    } catch {
      return null;
    }
  }

  async read(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream> {
    const file = this.pathOf(key);
    let fh;
    try {
      fh = await open(file, 'r');
    } catch (err) {
      if (isMissing(err)) throw new ArtifactNotFoundError(key);
      throw err;
    }
    // the stream reads the file that was opened, even if a put replaces it meanwhile
    try {
      const st = await fh.stat();
      if (!st.isFile()) throw new ArtifactNotFoundError(key);
      if (range) checkRange(range, st.size);
    } catch (err) {
      await fh.close();
      throw err;
    }
    return fh.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    await rm(this.metaPathOf(key), { force: true });
    // empty folders are left in place: removing them could race a concurrent put's mkdir
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
      await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((k) => this.delete(k)));
    }
  }

  /** Walks the folders under the prefix; dot-named entries (the sidecars, temp files) are not artifacts. */
  async *list(prefix: string): AsyncIterable<ListedArtifact> {
    const start = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const walk = async function* (root: string, rel: string): AsyncGenerator<ListedArtifact> {
      let dir;
      try {
        dir = await opendir(path.join(root, rel));
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for await (const e of dir) {
        if (e.name.startsWith('.')) continue;
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(root, key);
        } else if (e.isFile() && key.startsWith(prefix)) {
          const st = await stat(path.join(root, key)).catch(() => null);
          if (st) yield { key, size: st.size, lastModified: st.mtime };
        }
      }
    };
    yield* walk(this.root, start);
  }

  async url(key: string, baseUrl: string): Promise<string> {
    return `${baseUrl.replace(/\/+$/, '')}/artifacts/${assertArtifactKey(key)}`;
  }
}
