/**
 * "Retry all failed" on the console's jobs page, in a real Chromium against the real API and a
 * real in-process worker (its own Chromium): two renders fail for good on the worker (an injected
 * bad-data failure), a third is cancelled; the page asks, naming how many, and Keep it changes
 * nothing; confirmed, both failed renders are queued again and the same worker renders them to
 * completion (new work, as a submission makes), while the cancelled one stays cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { useTestApi } from '../helpers/api.js';
import { startTestWorker, useFailingWorker } from '../helpers/api-worker.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';
import { waitFor } from '../helpers/wait-for.js';

const api = useTestApi();

describe('console: retry all failed', () => {
  // first, so that it is stopped after the browser is closed (afterAll runs in reverse)
  const fw = useFailingWorker(api);
  let b: ConsoleBrowser;
  let adminKey: string;

  beforeAll(async () => {
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    b = await launchConsoleBrowser(api);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
  }, 60_000);

  const submit = async (width: number) => {
    const r = await api.call('POST', '/render-by-share-code', {
      token: api.key,
      body: { shareCode: 'DEMO-GLASS', format: 'sprite', width, height: 256, profile: 'fast' },
    });
    expect(r.status, r.text).toBeLessThan(300);
    return r.json.job_id as string;
  };
  const statusOf = async (jobId: string) =>
    (await api.call('GET', `/render-build/${jobId}`, { token: api.key })).json as { status: string; error?: string };

  it('asks with the count, then queues the failed renders again and the worker renders them; a cancelled one stays', async () => {
    const failed = [await submit(256), await submit(264)];
    for (const id of failed)
      await waitFor(`job ${id} to fail`, () => statusOf(id), { until: (j) => j.status === 'error', timeoutMs: 60_000 });
    // a cancelled job is an error too, but not a failure: stopped on purpose
    await fw.worker.stop();
    const cancelled = await submit(272);
    expect((await api.call('POST', `/render-build/${cancelled}/cancel`, { token: api.key })).status).toBe(200);
    fw.failing = false;

    const page = await b.openAs(adminKey, '#/jobs');
    await page.waitForSelector(`tr[data-job="${failed[0]}"][data-status=error]`);
    await page.click('[data-action=retry-failed]');
    await page.waitForSelector('dialog.confirm[open] [data-confirm=retry-failed]');
    expect(await page.$eval('[data-confirm=retry-failed]', (e) => e.textContent)).toContain(
      '2 failed renders again (2 jobs',
    );
    await page.click('dialog.confirm[open] [data-action=dismiss]');
    await page.waitForSelector('dialog.confirm:not([open])');
    expect((await statusOf(failed[0]!)).status).toBe('error');

    await page.click('[data-action=retry-failed]');
    await page.waitForSelector('dialog.confirm[open] [data-confirm=retry-failed]');
    await page.click('dialog.confirm[open] [data-action=confirm]');
    await page.waitForSelector('[data-note=retry-failed]');
    expect(await page.$eval('[data-note=retry-failed]', (e) => e.textContent)).toContain(
      'Queued 2 failed renders again (2 jobs)',
    );
    for (const id of failed) expect((await statusOf(id)).status).toBe('queued');

    // a worker takes them as it takes fresh submissions, and renders them
    fw.worker = await startTestWorker(api, { ...fw.engine, close: async () => {} }, { chunkSeconds: 0 });
    for (const id of failed) {
      await page.waitForSelector(`tr[data-job="${id}"][data-status=completed]`, { timeout: 120_000 });
      expect((await statusOf(id)).status).toBe('completed');
    }
    const end = await statusOf(cancelled);
    expect([end.status, end.error]).toEqual(['error', expect.stringContaining('cancelled')]);
    await page.browserContext().close();
  }, 300_000);
});
