/**
 * GET /render-build/:jobId/events on real PostgreSQL, across two serve processes: this test's
 * in-process API (A) and a `render-farm serve` child process (B) on the same database. State
 * changes are written to the renders table the way a worker writes them; LISTEN/NOTIFY and the
 * render_events log carry them to both processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { markCompleted, markError, markProcessing, markProgress, renderIdOfJob } from '../helpers/render-states.js';
import { openSse } from '../helpers/sse.js';

const BIN = path.resolve('bin/render-farm');
const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;

describe('job events (SSE)', () => {
  let api: TestApi;
  let child: ChildProcess | null = null;
  let urlB = '';
  let token: string;
  let size = 256;

  const mint = async (key: string, scopes = ['render:submit', 'render:status']) =>
    (await api.call('POST', '/auth/render-session', { token: key, body: { scopes, ttl_seconds: 300 } })).json
      .session_token as string;
  // each job gets its own render: vary the size
  const newJob = async () => {
    size += 8;
    const r = await api.call('POST', '/render-build', {
      token,
      body: { parts: glass.parts, format: 'sprite', width: size, height: size, profile: 'fast' },
    });
    expect(r.status).toBe(202);
    return { jobId: r.json.job_id as string, renderId: await renderIdOfJob(api.t.db, r.json.job_id) };
  };
  const db = () => api.t.db;

  beforeAll(async () => {
    api = await startTestApi({ eventsHeartbeatSeconds: 1 });
    token = await mint(api.key);
    child = spawn('node', [BIN, 'serve', '--port', '0'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: api.t.url,
        RENDER_FARM_DATA_DIR: api.t.cfg.dataDir,
        RENDER_FARM_SIGNING_SECRET: api.t.cfg.signingSecret,
        RENDER_FARM_EVENTS_HEARTBEAT: '1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log: string[] = [];
    urlB = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        log.push(d.toString());
        const m = /listening on (http:\/\/\S+)/.exec(log.join(''));
        if (m) resolve(m[1]!);
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.on('exit', (code) => reject(new Error(`serve exited ${code}: ${log.join('')}`)));
    });
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await api?.close();
  });

  it('streams status, progress and the completed job object to both serve processes', async () => {
    const { jobId, renderId } = await newJob();
    const a = await openSse(`${api.url}/render-build/${jobId}/events`, { authorization: `Bearer ${token}` });
    // B: EventSource style, the token in the query string
    const b = await openSse(`${urlB}/render-build/${jobId}/events?access_token=${encodeURIComponent(token)}`);
    for (const s of [a, b]) {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(s.headers.get('cache-control')).toBe('no-store');
      await s.waitFor('the snapshot', () => s.events().length === 1);
      expect(s.events()[0]).toMatchObject({ event: 'status', data: { job_id: jobId, status: 'queued', progress: 0 } });
    }
    await markProcessing(db(), renderId);
    await markProgress(db(), renderId, 0.5);
    for (const s of [a, b]) {
      await s.waitFor('progress 0.5', () => s.events().some((e) => e.event === 'progress' && e.data.progress === 0.5));
    }
    await markCompleted(db(), renderId);
    for (const s of [a, b]) {
      await s.ended;
      const ev = s.events();
      expect(ev.map((e) => e.event)).toEqual(['status', 'status', 'progress', 'completed']);
      expect(ev[1]!.data).toMatchObject({ status: 'processing' });
      const done = ev.at(-1)!.data;
      expect(done).toMatchObject({
        job_id: jobId,
        status: 'completed',
        job_type: 'render',
        progress: 1,
        video_url: null,
      });
      expect(done.sprite_url).toMatch(/\/artifacts\/renders\/.+\/sprite\.webp$/);
      expect(done.url).toBe(done.sprite_url);
      // ids increase, so Last-Event-ID resumes in order
      const ids = ev.slice(1).map((e) => Number(e.id));
      expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    }
    // each process builds URLs from the host the client used
    expect(b.events().at(-1)!.data.sprite_url.startsWith(urlB)).toBe(true);
  });

  it('Last-Event-ID replays what a client missed; after the final event it answers 204', async () => {
    const { jobId, renderId } = await newJob();
    const first = await openSse(`${urlB}/render-build/${jobId}/events`, { authorization: `Bearer ${token}` });
    await first.waitFor('the snapshot', () => first.events().length === 1);
    const seen = first.events()[0]!.id!;
    first.close();
    await markProcessing(db(), renderId);
    await markProgress(db(), renderId, 0.3);
    await markProgress(db(), renderId, 0.6);
    // reconnect while still running: the missed status and only the newest progress
    const again = await openSse(`${api.url}/render-build/${jobId}/events`, {
      authorization: `Bearer ${token}`,
      'last-event-id': seen,
    });
    await again.waitFor('replay', () => again.events().some((e) => e.event === 'progress'));
    expect(again.events().map((e) => [e.event, e.data.status, e.data.progress])).toEqual([
      ['status', 'processing', 0],
      ['progress', 'processing', 0.6],
    ]);
    await markError(db(), renderId, 'the render timed out after 900 s');
    await again.ended;
    const last = again.events().at(-1)!;
    expect(last).toMatchObject({
      event: 'error',
      data: { job_id: jobId, status: 'error', error: 'the render timed out after 900 s' },
    });
    const after = await fetch(`${urlB}/render-build/${jobId}/events`, {
      headers: { authorization: `Bearer ${token}`, 'last-event-id': last.id! },
    });
    expect(after.status).toBe(204);
    // a fresh connection to a finished job gets the final event at once and the stream ends
    const fresh = await openSse(`${api.url}/render-build/${jobId}/events?access_token=${token}`);
    await fresh.ended;
    expect(fresh.events().map((e) => e.event)).toEqual(['error']);
  });

  it('sends heartbeat comments on an idle stream', async () => {
    const { jobId } = await newJob();
    const s = await openSse(`${urlB}/render-build/${jobId}/events`, { authorization: `Bearer ${token}` });
    await s.waitFor(
      'a heartbeat',
      (items) => items.some((i) => i.type === 'comment' && i.text.startsWith('heartbeat')),
      10_000,
    );
    s.close();
  });

  it('keeps streaming after the LISTEN connection is cut (reconnect and resync)', async () => {
    const { jobId, renderId } = await newJob();
    const s = await openSse(`${api.url}/render-build/${jobId}/events`, { authorization: `Bearer ${token}` });
    await s.waitFor('the snapshot', () => s.events().length === 1);
    const killed = await sql<{ n: number }>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE application_name = 'render-farm-events' AND datname = current_database()`.execute(db().db);
    expect(killed.rows[0]!.n).toBeGreaterThanOrEqual(1);
    await markProcessing(db(), renderId);
    await markCompleted(db(), renderId);
    await s.ended;
    expect(s.events().at(-1)).toMatchObject({ event: 'completed', data: { status: 'completed' } });
  });

  it('same auth and ownership as the job: 401, 403, 404; no API keys in URLs', async () => {
    const { jobId } = await newJob();
    const url = `${api.url}/render-build/${jobId}/events`;
    const get = (u: string, headers: Record<string, string> = {}) =>
      fetch(u, { headers }).then(async (r) => ({ status: r.status, json: await r.json() }));
    expect((await get(url)).status).toBe(401);
    expect((await get(`${url}?access_token=nonsense`)).json.error).toBe('invalid_token');
    const keyInUrl = await get(`${url}?access_token=${api.key}`);
    expect(keyInUrl).toMatchObject({ status: 401, json: { error: 'api_key_in_url' } });
    const noStatus = await mint(api.key, ['render:submit']);
    expect((await get(url, { authorization: `Bearer ${noStatus}` })).status).toBe(403);
    const other = await createApiKey(api.t.db.db, 'someone-else', 'prod');
    const otherToken = await mint(other.key);
    expect(await get(`${url}?access_token=${otherToken}`)).toMatchObject({
      status: 404,
      json: { error: 'job_not_found' },
    });
    expect((await get(`${api.url}/render-build/not-a-uuid/events`, { authorization: `Bearer ${token}` })).status).toBe(
      404,
    );
    // an API key in the header works (server-side consumers)
    const s = await openSse(url, { authorization: `Bearer ${api.key}` });
    expect(s.status).toBe(200);
    await s.waitFor('the snapshot', () => s.events().length === 1);
    s.close();
  });
});
