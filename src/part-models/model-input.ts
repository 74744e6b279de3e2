/**
 * A part model as it arrives: one .glb, or a .gltf with the files it names (buffers, images).
 * Every external URI is resolved here, once, against files the caller hands over (the import
 * directory, an upload's parts), so nothing later reads the filesystem or the network on a
 * model's behalf: absolute paths, schemes other than `data:` and `..` are refused, as is a name
 * whose file did not come along. The byte limit is applied here too, before anything is parsed.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { GLTF } from '@gltf-transform/core';
import { ModelRejectedError, ModelTooLargeError } from './model-errors.js';

/** A model and the sidecar files it names, all in memory. */
export interface ModelInput {
  /** the file name (for messages and the stored original name) */
  name: string;
  kind: 'glb' | 'gltf';
  bytes: Uint8Array;
  /** the external files the glTF JSON names, keyed by the URI exactly as written there */
  resources: Record<string, Uint8Array>;
}

/** RENDER_FARM_MODEL_MAX_BYTES's default: the bound when a caller passes none. */
export const DEFAULT_MODEL_MAX_BYTES = 64 * 1024 * 1024;

const GLB_MAGIC = 0x46546c67; // 'glTF'
const GLB_JSON_CHUNK = 0x4e4f534a; // 'JSON'

/** True when the bytes start with the GLB magic. */
export function isGlb(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 12 &&
    new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC
  );
}

/** The glTF JSON of a .glb or .gltf, or null when it cannot be read (the validator then says why). */
export function modelJson(kind: ModelInput['kind'], bytes: Uint8Array): GLTF.IGLTF | null {
  let text: string;
  if (kind === 'glb') {
    if (!isGlb(bytes) || bytes.byteLength < 20) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const length = view.getUint32(12, true);
    if (view.getUint32(16, true) !== GLB_JSON_CHUNK || 20 + length > bytes.byteLength) return null;
    text = new TextDecoder().decode(bytes.subarray(20, 20 + length));
  } else {
    text = new TextDecoder().decode(bytes);
  }
  try {
    // the shape is the validator's to judge; here only the URIs are read, defensively
    const json: unknown = JSON.parse(text);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as GLTF.IGLTF) : null;
  } catch {
    return null;
  }
}

/** Every `uri` of buffers and images with its JSON pointer (data: URIs included). */
function namedUris(json: GLTF.IGLTF): { uri: string; pointer: string }[] {
  const out: { uri: string; pointer: string }[] = [];
  for (const key of ['buffers', 'images'] as const) {
    const list: unknown = json[key];
    if (!Array.isArray(list)) continue;
    list.forEach((item: unknown, i) => {
      const uri = item && typeof item === 'object' ? (item as { uri?: unknown }).uri : undefined;
      if (typeof uri === 'string') out.push({ uri, pointer: `/${key}/${i}/uri` });
    });
  }
  return out;
}

const SELF_CONTAINED = 'a .gltf must be self-contained or come with its files (put them beside it, or export a .glb)';

/**
 * The relative path a URI names, or why it is refused. Decoded first, so `%2e%2e` is `..` too.
 */
function relativePath(uri: string): { path: string } | { problem: string } {
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    return { problem: `"${uri}" is not a valid URI` };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(decoded))
    return {
      problem: `"${uri}" is a URL (${decoded.split(':')[0]}:): only relative file names and data: URIs are allowed`,
    };
  if (decoded.startsWith('/') || decoded.startsWith('\\') || path.isAbsolute(decoded))
    return { problem: `"${uri}" is an absolute path: only names relative to the model are allowed` };
  if (decoded.split(/[\\/]/).includes('..')) return { problem: `"${uri}" reaches outside the model's folder (..)` };
  return { path: path.posix.normalize(decoded.replace(/\\/g, '/')) };
}

function kindOf(name: string, bytes: Uint8Array): ModelInput['kind'] {
  if (isGlb(bytes)) return 'glb';
  const ext = path.extname(name).toLowerCase();
  if (ext === '.gltf') return 'gltf';
  if (ext === '.glb') return 'glb'; // not a GLB after all: the validator says so
  throw new ModelRejectedError(
    `${name}: not a glTF model: give a .glb or a .gltf file (glTF 2.0, exported from Blender or any DCC tool)`,
  );
}

function checkBytes(name: string, bytes: number, maxBytes: number, what: string): void {
  if (bytes > maxBytes) {
    throw new ModelTooLargeError(
      `${name}: ${what} ${formatBytes(bytes)}, over the limit of ${formatBytes(maxBytes)}: simplify or compress the textures in the authoring tool, or raise RENDER_FARM_MODEL_MAX_BYTES`,
      bytes,
      maxBytes,
    );
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

/**
 * A model from bytes and the files that came with it (`files`: relative path -> bytes, e.g. the
 * rest of an import directory or an upload). Throws ModelRejectedError for an external URI that
 * is refused or missing, ModelTooLargeError over `maxBytes` (the file, or all files together).
 */
export function modelInputFromBytes(
  name: string,
  bytes: Uint8Array,
  files: Record<string, Uint8Array> = {},
  maxBytes = DEFAULT_MODEL_MAX_BYTES,
): ModelInput {
  checkBytes(name, bytes.byteLength, maxBytes, 'is');
  const kind = kindOf(name, bytes);
  const byPath = new Map(Object.entries(files).map(([p, b]) => [path.posix.normalize(p.replace(/\\/g, '/')), b]));
  return {
    name,
    kind,
    bytes,
    resources: resolveResources(name, modelJson(kind, bytes), bytes, maxBytes, (p) => byPath.get(p)),
  };
}

/**
 * A model from a file; a .gltf's (or .glb's) external files are read from its directory.
 * Throws as modelInputFromBytes; a file that is not there is a ModelRejectedError naming it.
 */
export async function readModelFile(filePath: string, maxBytes = DEFAULT_MODEL_MAX_BYTES): Promise<ModelInput> {
  const name = path.basename(filePath);
  const size = await stat(filePath).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0) throw new ModelRejectedError(`${filePath}: no such file: give the path of a .glb or .gltf file`);
  // the size before reading, so a huge file is never loaded
  checkBytes(name, size, maxBytes, 'is');
  const bytes = new Uint8Array(await readFile(filePath));
  const kind = kindOf(name, bytes);
  const dir = path.dirname(filePath);
  // sidecars are few and small next to the limit: read those named, then check the total
  const json = modelJson(kind, bytes);
  const wanted = json ? namedUris(json).map((u) => relativePath(u.uri)) : [];
  const files: Record<string, Uint8Array> = {};
  for (const w of wanted) {
    if (!('path' in w) || w.path in files) continue;
    const full = path.join(dir, w.path);
    const s = await stat(full).catch(() => null);
    if (!s?.isFile()) continue;
    checkBytes(`${name}: ${w.path}`, s.size, maxBytes, 'is');
    files[w.path] = new Uint8Array(await readFile(full));
  }
  // the JSON parsed above, passed on: a .gltf's JSON can be most of the file
  return { name, kind, bytes, resources: resolveResources(name, json, bytes, maxBytes, (p) => files[p]) };
}

function resolveResources(
  name: string,
  json: GLTF.IGLTF | null,
  bytes: Uint8Array,
  maxBytes: number,
  fileAt: (relPath: string) => Uint8Array | undefined,
): Record<string, Uint8Array> {
  if (!json) return {}; // not readable JSON: the validator reports it with its own words
  const resources: Record<string, Uint8Array> = {};
  const problems: { message: string; pointer: string }[] = [];
  for (const { uri, pointer } of namedUris(json)) {
    if (/^data:/i.test(uri) || uri in resources) continue;
    const rel = relativePath(uri);
    if ('problem' in rel) {
      problems.push({ message: rel.problem, pointer });
      continue;
    }
    const file = fileAt(rel.path);
    if (!file) problems.push({ message: `"${uri}" is not there`, pointer });
    else resources[uri] = file;
  }
  if (problems.length) {
    const first = problems[0];
    throw new ModelRejectedError(`${name}: ${first.message} (${first.pointer}): ${SELF_CONTAINED}`, problems);
  }
  const total = Object.values(resources).reduce((n, b) => n + b.byteLength, bytes.byteLength);
  checkBytes(name, total, maxBytes, 'with its files is');
  return resources;
}
