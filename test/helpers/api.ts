/** Starts the real API on a fresh test database (port 0) with one API key. */
import { createApiKey } from '../../src/auth/api-keys.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { createLogger, type Logger } from '../../src/log.js';
import { createTestDb, type TestDb } from './db.js';
import { perFile } from './per-file.js';

export interface TestApi {
  t: TestDb;
  server: RunningServer;
  url: string;
  key: string;
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    headers: Headers;
    json: any;
    text: string;
  }>;
  close(): Promise<void>;
}

/** `log`: where the server logs (default: nowhere); see log-capture.ts to assert on lines. */
export async function startTestApi(
  overrides: Parameters<typeof createTestDb>[0] = {},
  opts: { log?: Logger } = {},
): Promise<TestApi> {
  const t = await createTestDb({ port: 0, seedDemo: true, ...overrides });
  const server = await startServer(t.cfg, { db: t.db, log: opts.log ?? createLogger({ logLevel: 'silent' }) });
  const { key } = await createApiKey(t.db.db, 'acme', 'prod');
  const call: TestApi['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(server.url + path, { method, headers, body });
    const text = await res.text();
    let json: any = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, headers: res.headers, json, text };
  };
  return {
    t,
    server,
    url: server.url,
    key,
    call,
    close: async () => {
      await server.close();
      await t.close();
    },
  };
}

/** This file's API (startTestApi), started in beforeAll and closed in afterAll. */
export function useTestApi(
  overrides: Parameters<typeof createTestDb>[0] = {},
  opts: { log?: Logger; timeoutMs?: number } = {},
): TestApi {
  return perFile(
    'the test API',
    () => startTestApi(overrides, { log: opts.log }),
    (api) => api.close(),
    opts.timeoutMs,
  );
}

/** A session token minted with the file's API key. */
export async function mintSession(
  api: TestApi,
  body: { scopes?: string[]; ttl_seconds?: number } = {},
): Promise<string> {
  return (await api.call('POST', '/auth/render-session', { token: api.key, body })).json.session_token;
}

/** The error body (docs/design-decisions.md, "Errors"). */
export function isErrorBody(json: unknown): boolean {
  const j = json as { error?: unknown; message?: unknown; stack?: unknown };
  return typeof j?.error === 'string' && typeof j?.message === 'string' && j.stack === undefined;
}
