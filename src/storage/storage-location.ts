/** Parses STORAGE_URL into the backend it names. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { artifactKeyProblem } from './artifact-key.js';

/** Where artifacts live, as STORAGE_URL (or its absence) says. */
export type StorageLocation = { kind: 'fs'; root: string } | { kind: 's3'; bucket: string; prefix: string };

/**
 * Unset: `<dataDir>/artifacts`. `file:///abs/dir`: that directory. `s3://bucket/prefix`: the
 * bucket, objects under `prefix/` (no prefix when the path is empty).
 */
export function storageLocation(cfg: Pick<Config, 'dataDir' | 'storageUrl'>): StorageLocation {
  const raw = cfg.storageUrl;
  if (!raw) return { kind: 'fs', root: path.join(cfg.dataDir, 'artifacts') };
  const url = new URL(raw);
  if (url.protocol === 'file:') return { kind: 'fs', root: fileURLToPath(url) };
  if (url.protocol !== 's3:') throw new Error(`STORAGE_URL ${raw}: use s3://bucket[/prefix] or file:///dir`);
  const bucket = url.hostname;
  const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
  // the prefix joins every key, so it must obey the key rules itself
  const problem = prefix ? artifactKeyProblem(prefix) : null;
  if (problem) throw new Error(`STORAGE_URL ${raw}: prefix ${JSON.stringify(prefix)} ${problem}`);
  return { kind: 's3', bucket, prefix };
}
