/**
 * Where the stage server gets prepared part models (`GET /models/<sha256>.glb`, stage-server.ts):
 * a ModelSource is `(sha256) => bytes | null`. The store source reads the artifact store through
 * a bounded local disk cache (content-addressed, so an entry is never stale and eviction is the
 * only upkeep); overrides put in-memory models in front of any source (`render --model`,
 * `models preview`), keyed by the sha256 of their bytes.
 */
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MODEL_SHA256 } from '../model/part-models.js';
import type { Config } from '../config.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { sha256Hex } from '../storage/content-hash.js';
import { readAll } from '../storage/read-all.js';

/** The disk cache of stored models, under the data dir. */
export const MODEL_CACHE_DIR = 'model-cache';
import { modelArtifactKey } from '../storage/artifact-key.js';
import { ArtifactNotFoundError } from '../storage/storage-errors.js';

/** The bytes of the prepared GLB with this sha256, or null when there is none. */
export type ModelSource = (sha256: string) => Promise<Uint8Array | null>;

export interface StoreModelSourceOptions {
  /** folder of the disk cache (e.g. `<dataDir>/model-cache`); created on first write */
  cacheDir: string;
  /** bytes the cache may hold; the least recently used files go first (default 512 MiB) */
  maxBytes?: number;
}

/** A model's bytes read from the store were not the sha256 they are stored under. */
export class ModelIntegrityError extends Error {
  constructor(sha256: string, actual: string) {
    super(
      `stored model ${modelArtifactKey(sha256)} has sha256 ${actual}: the store is corrupt; add the model again (render-farm models add)`,
    );
    this.name = 'ModelIntegrityError';
  }
}

/** Models from the artifact store (`models/<sha256>.glb`) through a bounded disk cache. */
export function storeModelSource(store: ArtifactStore, opts: StoreModelSourceOptions): ModelSource {
  const maxBytes = opts.maxBytes ?? 512 * 1024 * 1024;
  const fileOf = (sha: string) => path.join(opts.cacheDir, `${sha}.glb`);
  return async (sha256) => {
    if (!MODEL_SHA256.test(sha256)) return null;
    const file = fileOf(sha256);
    const cached = await readFile(file).catch(() => null);
    if (cached) {
      // the mtime is the LRU clock
      const now = new Date();
      await utimes(file, now, now).catch(() => {});
      return cached;
    }
    let bytes: Buffer;
    try {
      bytes = await readAll(await store.read(modelArtifactKey(sha256)));
    } catch (err) {
      if (err instanceof ArtifactNotFoundError) return null;
      throw err;
    }
    const actual = sha256Hex(bytes);
    if (actual !== sha256) throw new ModelIntegrityError(sha256, actual);
    await mkdir(opts.cacheDir, { recursive: true });
    // written whole under a temporary name: a reader sees the file complete or not at all
    const temp = `${file}.${process.pid}.partial`;
    await writeFile(temp, bytes);
    await rename(temp, file);
    await trimCache(opts.cacheDir, maxBytes);
    return bytes;
  };
}

/** Deletes the least recently used cache files until the cache holds at most `maxBytes`. */
export async function trimCache(dir: string, maxBytes: number): Promise<void> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{64}\.glb$/.test(n));
  const files = (
    await Promise.all(
      names.map(async (n) => ({ file: path.join(dir, n), s: await stat(path.join(dir, n)).catch(() => null) })),
    )
  ).filter((f): f is { file: string; s: NonNullable<typeof f.s> } => f.s !== null);
  let total = files.reduce((a, f) => a + f.s.size, 0);
  files.sort((a, b) => a.s.mtimeMs - b.s.mtimeMs);
  for (const f of files) {
    if (total <= maxBytes) break;
    await rm(f.file, { force: true });
    total -= f.s.size;
  }
}

/**
 * `source` with in-memory models in front: each of `models` (GLB bytes) is served under its own
 * sha256. Returns the source and the sha256 of each given model, in order.
 */
export function withOverrides(
  source: ModelSource | null,
  models: Iterable<Uint8Array>,
): { source: ModelSource; shas: string[] } {
  const map = new Map<string, Uint8Array>();
  const shas: string[] = [];
  for (const bytes of models) {
    const sha = sha256Hex(bytes);
    map.set(sha, bytes);
    shas.push(sha);
  }
  return { source: async (sha) => map.get(sha) ?? (source ? source(sha) : null), shas };
}

/**
 * storeModelSource over a store opened on first use: a process that renders no build with a
 * model never opens (or creates) the artifact store.
 */
export function lazyStoreModelSource(open: () => Promise<ArtifactStore>, opts: StoreModelSourceOptions): ModelSource {
  let source: Promise<ModelSource> | null = null;
  return async (sha256) => {
    source ??= open().then((store) => storeModelSource(store, opts));
    source.catch(() => {
      source = null;
    });
    return (await source)(sha256);
  };
}

/**
 * The configured artifact store's models through a disk cache in the data dir: what workers,
 * `render`, pregen and previews draw stored models from (the store opens on the first model).
 */
export async function configuredModelSource(cfg: Config): Promise<ModelSource> {
  const { openArtifactStore } = await import('../storage/open-artifact-store.js');
  return lazyStoreModelSource(() => openArtifactStore(cfg), { cacheDir: path.join(cfg.dataDir, MODEL_CACHE_DIR) });
}
