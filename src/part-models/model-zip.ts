/**
 * A .gltf and its files sent as one zip (PUT /models/:partId, application/zip). Read in memory
 * from the central directory with node:zlib only: no archive library, nothing written to disk.
 * Everything an archive can hide is refused before a byte is inflated (too many entries, a
 * declared size over the model byte limit, encryption, symlinks, absolute or `..` paths), and
 * inflating is bounded by the declared size, so a zip bomb stops at the limit.
 */
import path from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { ModelRejectedError, ModelTooLargeError } from './model-errors.js';
import { DEFAULT_MODEL_MAX_BYTES, modelInputFromBytes, type ModelInput } from './model-input.js';

/** Entries a model zip may hold (files and folders): a model has a handful of buffers and images. */
export const MAX_ZIP_ENTRIES = 256;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
/** Host systems whose external attributes carry a Unix mode in the high 16 bits (Unix, macOS). */
const UNIX_HOSTS = new Set([3, 19]);
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

const METHOD_NAMES: Record<number, string> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'zstd',
  95: 'xz',
  98: 'PPMd',
  99: 'AES encryption',
};

const FIX =
  'zip the folder holding the .gltf and its files again with a plain zip tool (deflate, no password), or send a .glb';

function refuse(message: string): ModelRejectedError {
  return new ModelRejectedError(`model.zip: ${message}: ${FIX}`, [message]);
}

function tooLarge(what: string, bytes: number, maxBytes: number): ModelTooLargeError {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return new ModelTooLargeError(
    `model.zip: ${what} ${mib(bytes)} uncompressed, over the limit of ${mib(maxBytes)}: simplify or compress the textures in the authoring tool, or raise RENDER_FARM_MODEL_MAX_BYTES`,
    bytes,
    maxBytes,
  );
}

interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The end-of-central-directory record, searched backwards over the longest possible comment. */
function findEnd(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw refuse('not a zip file, or a truncated one (no end of central directory)');
}

/** Why a path is refused, or null. Checked on the raw name: a zip may spell paths any way. */
function pathProblem(name: string): string | null {
  if (name.includes('\\')) return `"${name}" has a backslash: zip paths use /`;
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) return `"${name}" is an absolute path`;
  if (name.split('/').includes('..')) return `"${name}" reaches outside the zip (..)`;
  if (name.includes('\0')) return `"${name}" has a NUL character`;
  return null;
}

function centralDirectory(bytes: Uint8Array, maxBytes: number): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 22) throw refuse('not a zip file, or a truncated one (too short)');
  const end = findEnd(view);
  const count = view.getUint16(end + 10, true);
  const cdSize = view.getUint32(end + 12, true);
  const cdOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || cdOffset === 0xffffffff || cdSize === 0xffffffff)
    throw refuse('ZIP64 archives are not read (a model zip is far smaller than 4 GiB)');
  // the count first: a directory of millions of entries is never walked
  if (count > MAX_ZIP_ENTRIES) throw refuse(`${count} entries, over the limit of ${MAX_ZIP_ENTRIES}`);
  if (cdOffset + cdSize > end) throw refuse('truncated or corrupt (the central directory lies outside the file)');
  const decoder = new TextDecoder();
  const entries: CentralEntry[] = [];
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL)
      throw refuse('truncated or corrupt (a central directory entry is missing)');
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    const localOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > end) throw refuse('truncated or corrupt (an entry name runs past the directory)');
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    const problem = pathProblem(name);
    if (problem) throw refuse(problem);
    if (UNIX_HOSTS.has(madeBy) && ((external >>> 16) & S_IFMT) === S_IFLNK)
      throw refuse(`"${name}" is a symbolic link: zip the files themselves (zip without --symlinks)`);
    if (flags & 0x1) throw refuse(`"${name}" is encrypted: zip it without a password`);
    if (method !== STORED && method !== DEFLATE) {
      throw refuse(
        `"${name}" is compressed with ${METHOD_NAMES[method] ?? `method ${method}`}: only stored and deflate entries are read`,
      );
    }
    entries.push({ name, method, flags, crc, compressedSize, size, localOffset });
  }
  // declared sizes before any inflating; the inflated size is held to them below
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > maxBytes) throw tooLarge('its files are', declared, maxBytes);
  return entries;
}

function entryBytes(bytes: Uint8Array, e: CentralEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (e.localOffset + 30 > bytes.byteLength || view.getUint32(e.localOffset, true) !== LOCAL)
    throw refuse(`truncated or corrupt ("${e.name}" has no local header)`);
  // the central directory's sizes rule: a streamed entry's local header may say 0
  const start =
    e.localOffset + 30 + view.getUint16(e.localOffset + 26, true) + view.getUint16(e.localOffset + 28, true);
  if (start + e.compressedSize > bytes.byteLength)
    throw refuse(`truncated ("${e.name}" runs past the end of the file)`);
  const data = bytes.subarray(start, start + e.compressedSize);
  let out: Uint8Array;
  if (e.method === STORED) {
    if (e.compressedSize !== e.size)
      throw refuse(`"${e.name}" is stored with ${e.compressedSize} bytes but declares ${e.size}`);
    out = data;
  } else {
    try {
      // one byte past the declared size is enough to see a lie; a bomb never expands further
      out = inflateRawSync(data, { maxOutputLength: e.size + 1 });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE')
        throw refuse(`"${e.name}" inflates to more than the ${e.size} bytes it declares`);
      throw refuse(`"${e.name}" cannot be inflated (${code ?? 'corrupt data'})`);
    }
    if (out.byteLength !== e.size)
      throw refuse(`"${e.name}" inflates to ${out.byteLength} bytes, not the ${e.size} it declares`);
  }
  if (crc32(out) >>> 0 !== e.crc >>> 0) throw refuse(`"${e.name}" fails its CRC check (corrupt)`);
  // a copy with its own ArrayBuffer: glTF readers view buffers from offset 0 of .buffer
  return new Uint8Array(out);
}

/** The files of a zip (folders left out), path -> bytes. Throws ModelRejectedError / ModelTooLargeError. */
export function readZip(bytes: Uint8Array, maxBytes = DEFAULT_MODEL_MAX_BYTES): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const e of centralDirectory(bytes, maxBytes)) {
    if (e.name.endsWith('/')) continue;
    if (files.has(e.name)) throw refuse(`"${e.name}" is in the zip twice`);
    files.set(e.name, entryBytes(bytes, e));
  }
  return files;
}

const MODEL_EXT = /\.(gltf|glb)$/i;

/**
 * The model a zip holds: exactly one .gltf or .glb, at the top level or in one folder, with the
 * files it names taken from its own folder (model-input.ts resolves and checks the URIs, as for
 * a .gltf read from disk). macOS's __MACOSX resource forks are ignored.
 */
export function modelInputFromZip(bytes: Uint8Array, maxBytes = DEFAULT_MODEL_MAX_BYTES): ModelInput {
  const files = readZip(bytes, maxBytes);
  const models = [...files.keys()].filter((p) => MODEL_EXT.test(p) && !p.startsWith('__MACOSX/'));
  if (models.length === 0) throw refuse('no .gltf or .glb in it');
  if (models.length > 1)
    throw refuse(`${models.length} models in it (${models.slice(0, 5).join(', ')}): send one .gltf or .glb per zip`);
  const model = models[0]!;
  if (model.split('/').length > 2)
    throw refuse(`"${model}" is more than one folder deep: put the .gltf at the top of the zip or in one folder`);
  const dir = path.posix.dirname(model);
  const prefix = dir === '.' ? '' : `${dir}/`;
  const beside: Record<string, Uint8Array> = {};
  for (const [p, b] of files) if (p !== model && p.startsWith(prefix)) beside[p.slice(prefix.length)] = b;
  return modelInputFromBytes(path.posix.basename(model), files.get(model)!, beside, maxBytes);
}
