/**
 * A tiny hash router: `#/jobs/abc?status=error` -> {path: ['jobs', 'abc'], query}. The hash keeps
 * every page on the one HTML shell the server sends, so a reload or a shared link lands on the
 * same page without server routes.
 */
import { useEffect, useState } from 'preact/hooks';

/** The current page: path segments and query parameters of the hash. */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

/** Parses a location hash (`#/a/b?x=1`). */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#\/?/, '');
  const [p = '', q = ''] = raw.split('?', 2);
  return { path: p.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(q) };
}

/** The hash for a page: `href('jobs', id)` -> `#/jobs/<id>`; query entries with empty values are dropped. */
export function href(...parts: (string | Record<string, string | undefined>)[]): string {
  const segs = parts.filter((p): p is string => typeof p === 'string').map(encodeURIComponent);
  const q = parts.find((p): p is Record<string, string | undefined> => typeof p !== 'string');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q ?? {})) if (v) params.set(k, v);
  const qs = params.toString();
  return `#/${segs.join('/')}${qs ? `?${qs}` : ''}`;
}

/** Goes to a page (a new history entry, so Back works). */
export function navigate(to: string): void {
  window.location.hash = to;
}

/** The route, re-rendered on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
