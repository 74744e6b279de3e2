/**
 * The console's worker page in a real Chromium against the real API and a real in-process
 * worker (its own Chromium): after one render fails for good (an injected bad-data failure) and
 * one completes, an admin reaches the worker from the overview and sees what its heartbeat
 * reports (version, uptime, memory, 1 done and 1 failed, the last error); Drain, confirmed,
 * reaches the worker through the database, and it stops (its `done` resolves; the page says
 * stopped). A customer's key gets no link and no worker page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { VERSION } from '../../src/version.js';
import { useTestApi } from '../helpers/api.js';
import { useFailingWorker } from '../helpers/api-worker.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';
import { waitFor } from '../helpers/wait-for.js';

const api = useTestApi();

describe('console worker page', () => {
  // first, so that it is stopped after the browser is closed (afterAll runs in reverse)
  const fw = useFailingWorker(api);
  let b: ConsoleBrowser;
  let adminKey: string;
  let customerKey: string;

  beforeAll(async () => {
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    customerKey = (await createApiKey(api.t.db.db, 'viewer-co', 'prod', { console: true })).key;
    b = await launchConsoleBrowser(api);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
  }, 60_000);

  const renderOnce = async (width: number, until: string) => {
    const r = await api.call('POST', '/render-by-share-code', {
      token: api.key,
      body: { shareCode: 'DEMO-GLASS', format: 'sprite', width, height: 256, profile: 'fast' },
    });
    expect(r.status, r.text).toBeLessThan(300);
    await waitFor(
      `job ${r.json.job_id} to end`,
      async () => (await api.call('GET', `/render-build/${r.json.job_id}`, { token: api.key })).json,
      {
        until: (j) => j.status === until,
        timeoutMs: 90_000,
      },
    );
  };

  it("shows what the worker's heartbeat reports, and drains it", async () => {
    await renderOnce(256, 'error');
    fw.failing = false;
    await renderOnce(264, 'completed');

    const page = await b.openAs(adminKey, '#/overview');
    await page.waitForSelector(`tr[data-worker="${fw.worker.id}"] a`);
    await page.click(`tr[data-worker="${fw.worker.id}"] a`);
    await page.waitForSelector(`.page.worker[data-worker="${fw.worker.id}"][data-state=running]`);
    const fact = (name: string) => page.$eval(`[data-fact=${name}]`, (e) => e.textContent?.trim() ?? '');
    // the heartbeat after the renders (every 5 s) carries the counts; the page refreshes itself
    await waitFor('the page to show the heartbeat after the renders', () => fact('jobs'), {
      until: (t) => t === '1 done, 1 failed',
      timeoutMs: 20_000,
      intervalMs: 250,
    });
    expect(await fact('version')).toContain(VERSION);
    expect(await fact('version')).toMatch(/renderer \S+/);
    expect(await fact('memory')).toMatch(/MiB resident/);
    expect(await fact('uptime')).toMatch(/\d/);
    expect(await fact('started')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await fact('last-error')).toContain('injected failure: the scene could not be built');

    await page.click('[data-action=drain]');
    await page.waitForSelector('dialog.confirm[open]');
    await page.click('dialog.confirm[open] [data-action=confirm]');
    // through the database: its next heartbeat reads the request and it stops as on SIGTERM
    await fw.worker.done;
    await page.waitForSelector('.page.worker[data-state=stopped]', { timeout: 20_000 });
    expect(await fact('drain')).toMatch(/^\d{4}-/);
    expect(await page.$('[data-action=drain]')).toBeNull();
    // a stopped worker cannot be drained again
    const again = await page.evaluate(async (id) => {
      const { csrf } = (await (await fetch('/console/api/me')).json()) as { csrf: string };
      const r = await fetch(`/console/api/workers/${id}/drain`, { method: 'POST', headers: { 'x-csrf-token': csrf } });
      return [r.status, ((await r.json()) as { error: string }).error];
    }, fw.worker.id);
    expect(again).toEqual([409, 'drain_refused']);
    await page.browserContext().close();
  }, 240_000);

  it("gives a customer's key no worker page", async () => {
    const page = await b.openAs(customerKey, '#/overview');
    await page.waitForSelector(`tr[data-worker="${fw.worker.id}"]`);
    expect(await page.$(`tr[data-worker="${fw.worker.id}"] a`)).toBeNull();
    const status = await page.evaluate(async (id) => (await fetch(`/console/api/workers/${id}`)).status, fw.worker.id);
    expect(status).toBe(403);
    await page.browserContext().close();
  }, 60_000);
});
