/** Content types of the artifacts this service produces, by file extension. */
const BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  gif: 'image/gif',
  glb: 'model/gltf-binary',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

/**
 * Content type for a key or file name from its extension; `application/octet-stream` when
 * unknown. The fs store falls back to it when a file has no (or stale) metadata.
 */
export function contentTypeFor(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[ext] ?? 'application/octet-stream';
}
