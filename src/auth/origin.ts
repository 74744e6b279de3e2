/**
 * Browser origins as a token binding. Brokers send what they have (`https://YourSite.com`,
 * `https://yoursite.com:443/`), browsers send the serialised origin (`https://yoursite.com`):
 * both sides are normalised (lower-case scheme and host, IDN as punycode, default port and
 * trailing slash dropped) so that equal origins compare equal.
 */

/** The opaque origin a browser sends (sandboxed frames, file://) and brokers forward as-is. */
export function isNullOrigin(value: string): boolean {
  return value.trim().toLowerCase() === 'null';
}

/** The serialised http(s) origin of `value`, or null when it is not scheme + host + optional port. */
export function normaliseOrigin(value: string): string | null {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password || u.pathname !== '/' || u.search || u.hash || !u.hostname) return null;
  return u.origin;
}
