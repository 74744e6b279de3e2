/**
 * The web console's server side (docs/console.md) on the real API and PostgreSQL: sign-in and its
 * refusals (bad key counted by the failed-auth limit, a key without the console scope, an
 * expired session, sign-out), CSRF on every change (refused changes change nothing), the CSP,
 * admin-only lists, `/` for browsers only, and cancel/retry through the console, the CLI and
 * the public API. No worker runs here: submitted jobs stay queued.
 */
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { getBuild } from '../../src/catalog/builds.js';
import { submitRender } from '../../src/jobs/submit.js';
import { isErrorBody, startTestApi, useTestApi, type TestApi } from '../helpers/api.js';
import { cliOn } from '../helpers/cli.js';

const api = useTestApi();

interface Signed {
  cookie: string;
  csrf: string;
  body: any;
}

async function signIn(a: TestApi, key: string): Promise<Signed> {
  const res = await a.call('POST', '/console/api/session', { body: { key } });
  expect(res.status, res.text).toBe(200);
  const set = res.headers.get('set-cookie') ?? '';
  return { cookie: set.split(';')[0]!, csrf: res.json.csrf, body: res.json };
}

function as(s: Signed, csrf: string | null = s.csrf): Record<string, string> {
  return { cookie: s.cookie, ...(csrf === null ? {} : { 'x-csrf-token': csrf }) };
}

async function consoleKey(
  customer: string,
  opts: { admin?: boolean; console?: boolean } = { console: true },
): Promise<string> {
  return (await createApiKey(api.t.db.db, customer, 'prod', opts)).key;
}

let size = 256;

/** A queued job of the session's customer, a render of its own (a new size each: renders of identical requests are shared); no worker runs, so it stays queued. */
async function queuedJob(s: Signed): Promise<string> {
  const build = (await getBuild(api.t.db, 'DEMO-GLASS'))!;
  const customer = await api.t.db.db
    .selectFrom('customers')
    .select('id')
    .where('name', '=', s.body.customer)
    .executeTakeFirstOrThrow();
  size += 8;
  const sub = await submitRender(api.t.db, {
    customerId: customer.id,
    parts: build.parts,
    state: null,
    options: { format: 'sprite', width: size, height: size, profile: 'fast' },
  });
  expect(sub.outcome).toBe('new');
  return sub.jobId;
}

async function status(jobId: string): Promise<{ status: string; error: string | null }> {
  const r = await api.t.db.db
    .selectFrom('jobs as j')
    .innerJoin('renders as r', 'r.id', 'j.render_id')
    .select(['r.status', 'r.error'])
    .where('j.id', '=', jobId)
    .executeTakeFirstOrThrow();
  return r;
}

describe('console sign-in', () => {
  it('exchanges a console key for an HttpOnly SameSite=Strict cookie and a CSRF token, never echoing the key', async () => {
    const key = await consoleKey('console-co');
    const res = await api.call('POST', '/console/api/session', { body: { key } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ customer: 'console-co', admin: false, environment: 'prod' });
    expect(res.json.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.text).not.toContain(key);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^rf_console=[^;]+; HttpOnly; SameSite=Strict; Path=\/console; Max-Age=\d+$/);
    expect(cookie).not.toContain(key);
    const me = await api.call('GET', '/console/api/me', { headers: { cookie: cookie.split(';')[0]! } });
    expect(me.status).toBe(200);
    expect(me.json.csrf).toBe(res.json.csrf);
  });

  it('refuses a bad key with 401 invalid_credentials and counts it toward the failed-auth limit', async () => {
    // its own server: the limit it exhausts is per process
    const own = await startTestApi({ authFailureLimitPerMinute: 1, authFailureBurst: 3 });
    try {
      const good = (await createApiKey(own.t.db.db, 'limited-co', 'prod', { console: true })).key;
      const bad = await own.call('POST', '/console/api/session', { body: { key: 'rfk_prod_' + 'x'.repeat(43) } });
      expect(bad.status).toBe(401);
      expect(bad.json.error).toBe('invalid_credentials');
      expect(isErrorBody(bad.json)).toBe(true);
      expect(bad.headers.get('set-cookie')).toBeNull();
      expect((await own.call('POST', '/console/api/session', { body: { key: good } })).status).toBe(200);
      // two more failures use up the burst of 3: then even the good key is refused
      for (let i = 0; i < 2; i++)
        expect((await own.call('POST', '/console/api/session', { body: { key: 'rfk_prod_bad' } })).status).toBe(401);
      const refused = await own.call('POST', '/console/api/session', { body: { key: good } });
      expect(refused.status).toBe(429);
      expect(refused.json.error).toBe('too_many_auth_failures');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it('refuses a customer key without the console scope with 403 console_scope_required', async () => {
    const res = await api.call('POST', '/console/api/session', { body: { key: api.key } });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('console_scope_required');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('answers 401 console_session_required without a cookie, with a forged one, and after expiry', async () => {
    expect((await api.call('GET', '/console/api/overview')).json.error).toBe('console_session_required');
    const s = await signIn(api, await consoleKey('expiring-co'));
    const forged = s.cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await api.call('GET', '/console/api/me', { headers: { cookie: forged } })).status).toBe(401);
    expect((await api.call('GET', '/console/api/me', { headers: as(s) })).status).toBe(200);
    await api.t.db.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', s.cookie.split('=')[1]!.split('.')[0]!)
      .execute();
    const expired = await api.call('GET', '/console/api/me', { headers: as(s) });
    expect(expired.status).toBe(401);
    expect(expired.json.error).toBe('console_session_required');
  });

  it('signs out: the cookie is cleared and no longer works anywhere', async () => {
    const s = await signIn(api, await consoleKey('leaving-co'));
    const noCsrf = await api.call('DELETE', '/console/api/session', { headers: as(s, null) });
    expect(noCsrf.status).toBe(403);
    const out = await api.call('DELETE', '/console/api/session', { headers: as(s) });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^rf_console=; .*Max-Age=0/);
    expect((await api.call('GET', '/console/api/me', { headers: as(s) })).status).toBe(401);
  });
});

describe('console changes need the CSRF token', () => {
  it('refuses a cancel without or with a wrong token (403 csrf_token_invalid) and leaves the job queued', async () => {
    const s = await signIn(api, await consoleKey('csrf-co'));
    const other = await signIn(api, await consoleKey('csrf-co-2'));
    const job = await queuedJob(s);
    for (const csrf of [null, 'x', other.csrf]) {
      const res = await api.call('POST', `/console/api/jobs/${job}/cancel`, { headers: as(s, csrf) });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('csrf_token_invalid');
    }
    expect((await status(job)).status).toBe('queued');
    const preview = await api.call('POST', '/console/api/preview', {
      body: { shareCode: 'DEMO-GLASS' },
      headers: as(s, null),
    });
    expect(preview.status).toBe(403);
  });

  it("submits a preview (a 256 px fast sprite) for the session's customer with the token", async () => {
    const s = await signIn(api, await consoleKey('preview-co'));
    const res = await api.call('POST', '/console/api/preview', { body: { shareCode: 'DEMO-GLASS' }, headers: as(s) });
    expect(res.status, res.text).toBe(200);
    const detail = await api.call('GET', `/console/api/jobs/${res.json.jobId}`, { headers: as(s) });
    expect(detail.json.job).toMatchObject({
      customer: 'preview-co',
      format: 'sprite',
      kind: 'render',
      shareCode: 'DEMO-GLASS',
    });
    expect(detail.json.job.request.options).toMatchObject({ width: 256, height: 256, profile: 'fast' });
  });
});

describe('console pages', () => {
  it('serves the shell, app.js and app.css with the CSP on every response', async () => {
    const shell = await api.call('GET', '/console');
    expect(shell.status).toBe(200);
    expect(shell.text).toContain('<div id="app"></div>');
    expect(shell.text).not.toMatch(/<script>|<style>/);
    const csp = shell.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(shell.headers.get('x-frame-options')).toBe('DENY');
    const js = await api.call('GET', '/console/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toBe('no-cache');
    expect(js.text.length).toBeGreaterThan(1000);
    const again = await api.call('GET', '/console/app.js', { headers: { 'if-none-match': js.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await api.call('GET', '/console/app.css')).headers.get('content-type')).toMatch(/text\/css/);
    const refused = await api.call('GET', '/console/api/me');
    expect(refused.headers.get('content-security-policy')).toBe(csp);
  });

  it('redirects browsers from / to the console; API clients get what they got before', async () => {
    const browser = await fetch(api.url + '/', {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/console/');
    const plain = await fetch(api.url + '/', { redirect: 'manual' });
    const json = await fetch(api.url + '/', { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(plain.status).not.toBe(302);
    expect(json.status).not.toBe(302);
  });

  it('refuses the keys and webhooks lists to a console key that is not admin (403 admin_required); an admin key gets them', async () => {
    const s = await signIn(api, await consoleKey('plain-co'));
    for (const path of ['/console/api/keys', '/console/api/webhooks']) {
      const res = await api.call('GET', path, { headers: as(s) });
      expect(res.status).toBe(403);
      expect(res.json.error).toBe('admin_required');
    }
    const admin = await signIn(api, await consoleKey('ops', { admin: true }));
    expect(admin.body.admin).toBe(true);
    const keys = await api.call('GET', '/console/api/keys', { headers: as(admin) });
    expect(keys.status).toBe(200);
    expect(
      keys.json.some(
        (k: { customer: string; scopes: string[] }) => k.customer === 'ops' && k.scopes.includes('console'),
      ),
    ).toBe(true);
    expect(keys.text).not.toMatch(/rfk_prod_[A-Za-z0-9_-]{43}/);
  });

  it('reads the overview, the catalog and the pregen status', async () => {
    const s = await signIn(api, await consoleKey('reader-co'));
    const o = await api.call('GET', '/console/api/overview', { headers: as(s) });
    expect(o.status).toBe(200);
    expect(o.json.perMinute).toHaveLength(60);
    expect(o.json.queues.map((q: { kind: string }) => q.kind)).toContain('renders');
    const parts = await api.call('GET', '/console/api/catalog/parts?category=PCCase', { headers: as(s) });
    expect(parts.json.parts.length).toBeGreaterThan(0);
    expect(parts.json.parts.every((p: { category: string }) => p.category === 'PCCase')).toBe(true);
    const builds = await api.call('GET', '/console/api/catalog/builds', { headers: as(s) });
    expect(
      builds.json.builds.find((b: { shareCode: string }) => b.shareCode === 'DEMO-GLASS')?.parts.length,
    ).toBeGreaterThan(0);
    const pregen = await api.call('GET', '/console/api/pregen', { headers: as(s) });
    // nothing pregenerated yet: no entries, and every saved build missing in each variant
    expect(pregen.json.entries).toEqual([]);
    expect(
      pregen.json.coverage.find(
        (c: { format: string; profile: string }) => c.format === 'sprite' && c.profile === 'fast',
      ),
    ).toMatchObject({ size: '512x512', current: 0, stale: 0 });
    expect(pregen.json.coverage.every((c: { missing: number }) => c.missing > 0)).toBe(true);
  });
});

describe('cancel and retry', () => {
  it('cancels a queued job from the console, then retries it: the same code as the CLI', async () => {
    const s = await signIn(api, await consoleKey('cancel-co'));
    const job = await queuedJob(s);
    const list = await api.call('GET', '/console/api/jobs?status=queued', { headers: as(s) });
    expect(list.json.jobs.map((j: { id: string }) => j.id)).toContain(job);
    const cancelled = await api.call('POST', `/console/api/jobs/${job}/cancel`, { headers: as(s) });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.job.status).toBe('error');
    expect(cancelled.json.job.error).toMatch(/^cancelled:/);
    expect((await status(job)).status).toBe('error');
    const twice = await api.call('POST', `/console/api/jobs/${job}/cancel`, { headers: as(s) });
    expect(twice.status).toBe(409);
    expect(twice.json.error).toBe('cancel_refused');
    const retried = await api.call('POST', `/console/api/jobs/${job}/retry`, { headers: as(s) });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.job.status).toBe('queued');
    expect(await status(job)).toEqual({ status: 'queued', error: null });
  });

  it("does not show or change another customer's job to a customer's console key (404)", async () => {
    const mine = await signIn(api, await consoleKey('owner-co'));
    const theirs = await signIn(api, await consoleKey('stranger-co'));
    const job = await queuedJob(mine);
    expect((await api.call('GET', `/console/api/jobs/${job}`, { headers: as(theirs) })).status).toBe(404);
    expect((await api.call('POST', `/console/api/jobs/${job}/cancel`, { headers: as(theirs) })).status).toBe(404);
    expect((await status(job)).status).toBe('queued');
  });

  it('cancels a queued job through the public API (POST /render-build/{jobId}/cancel)', async () => {
    const sub = await api.call('POST', '/render-by-share-code', {
      token: api.key,
      body: { shareCode: 'DEMO-GLASS', format: 'sprite', width: 320, height: 320, profile: 'fast' },
    });
    expect(sub.status, sub.text).toBeLessThan(300);
    const res = await api.call('POST', `/render-build/${sub.json.job_id}/cancel`, { token: api.key });
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe('error');
    expect(res.json.error).toMatch(/^cancelled:/);
  });

  it('cancels a queued job with render-farm jobs cancel (exit 0), and says why it cannot cancel an ended one (exit 1)', async () => {
    const s = await signIn(api, await consoleKey('cli-co'));
    const job = await queuedJob(s);
    const cli = cliOn(api.t);
    const first = await cli('jobs', 'cancel', job);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`${job}: error`);
    expect((await status(job)).error).toMatch(/^cancelled:/);
    const again = await cli('jobs', 'cancel', job);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already ended');
  });
});

describe('console input', () => {
  it("answers a bad query with the API's 400 body, naming each bad parameter; an empty parameter is as good as none", async () => {
    const s = await signIn(api, await consoleKey('input-co'));
    const jobs = (query: string) => api.call('GET', `/console/api/jobs?${query}`, { headers: as(s) });
    const limit = await jobs('limit=500');
    expect(limit.status, limit.text).toBe(400);
    expect(limit.json).toEqual({
      error: 'invalid_query',
      message: 'invalid request query: limit: limit must be at most 200',
      details: [{ field: 'limit', message: 'limit must be at most 200' }],
    });
    // the API's own answer to a bad query has the same shape
    const apiLimit = await api.call('GET', '/available-parts?category=cpu&limit=500', { token: api.key });
    expect(apiLimit.status).toBe(400);
    expect(Object.keys(apiLimit.json).sort()).toEqual(Object.keys(limit.json).sort());
    expect(apiLimit.json.error).toBe(limit.json.error);

    const bad = await jobs('status=done&before=nope&format=sprite&format=video');
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.error).toBe('invalid_query');
    expect(bad.json.details).toEqual([
      { field: 'before', message: 'before must be the `next` of the previous page' },
      { field: 'status', message: 'status must be one of queued, processing, completed, error' },
      { field: 'format', message: 'format must be given once' },
    ]);
    expect((await jobs('limit=abc')).json.details).toEqual([
      { field: 'limit', message: 'limit must be an integer from 1 to 200' },
    ]);
    const parts = await api.call('GET', '/console/api/catalog/parts?category=toaster', { headers: as(s) });
    expect(parts.status).toBe(400);
    expect(parts.json.details[0].field).toBe('category');

    const empty = await jobs('status=&limit=&q=');
    expect(empty.status, empty.text).toBe(200);
    expect(empty.json).toEqual({ jobs: [], next: null });
  });

  it("answers a bad body with the API's 400 body, and refuses before acting", async () => {
    const admin = await signIn(api, await consoleKey('input-ops', { admin: true }));
    const noKey = await api.call('POST', '/console/api/session', { body: { key: 42 } });
    expect(noKey.status).toBe(400);
    expect(noKey.json).toMatchObject({
      error: 'invalid_body',
      details: [{ field: 'key', message: 'key must be an API key (a string)' }],
    });
    const preview = await api.call('POST', '/console/api/preview', {
      headers: as(admin),
      body: { shareCode: '', extra: 1 },
    });
    expect(preview.status).toBe(400);
    expect(preview.json.details).toEqual([
      { field: 'shareCode', message: 'shareCode must name a saved build' },
      { field: 'extra', message: 'unknown field' },
    ]);
    const fill = await api.call('POST', '/console/api/pregen/fill', {
      headers: as(admin),
      body: { format: 'gif', profile: 'fast' },
    });
    expect(fill.status).toBe(400);
    expect(fill.json).toMatchObject({ error: 'invalid_body', details: [{ field: 'format' }] });
    expect(isErrorBody(fill.json)).toBe(true);
    const jobs = await api.t.db.db.selectFrom('jobs').select('id').execute();
    expect((await api.call('POST', '/console/api/pregen/fill', { headers: as(admin) })).json.error).toBe(
      'missing_body',
    );
    expect(await api.t.db.db.selectFrom('jobs').select('id').execute()).toHaveLength(jobs.length);
  });
});
