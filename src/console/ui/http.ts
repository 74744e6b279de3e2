/**
 * The console's one way to call its server: same-origin fetch with the session cookie, the CSRF
 * token on every state-changing request, and the API's error body turned into an ApiError.
 */

/** An error answer of the console API (`{error, message, details?}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken = '';
let onSessionLost: () => void = () => {};

/** The CSRF token of the current session (from sign-in or /me); cleared on sign-out. */
export function setCsrf(token: string): void {
  csrfToken = token;
}

/** What to do when the server says the session is gone (401): the app shows the sign-in page. */
export function onUnauthorized(handler: () => void): void {
  onSessionLost = handler;
}

/** Calls `/console/api<path>`; resolves with the parsed JSON body, rejects with an ApiError. */
export async function apiCall<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/console/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // a proxy's HTML error page: reported below with the status
  }
  if (!res.ok) {
    const e = (json ?? {}) as { error?: string; message?: string; details?: unknown };
    const err = new ApiError(
      res.status,
      e.error ?? `http_${res.status}`,
      e.message ?? `the server answered ${res.status}`,
      e.details,
    );
    // a failed sign-in is a 401 too, but it is the sign-in page's own message to show
    if (res.status === 401 && path !== '/session') onSessionLost();
    throw err;
  }
  return json as T;
}
