/**
 * The web console in a real Chromium (the one the farm finds), against a real API and a real
 * in-process worker (its own warm Chromium): sign in, the worker on the overview, a preview from
 * the catalog whose progress moves live without a reload, the sprite turned by dragging, a split
 * video job played in the page, a failed job's error and its retry, cancel of a queued job, sign
 * out. `RENDER_FARM_CONSOLE_SCREENSHOTS=1` also writes docs/images/console-*.png and prints the
 * page weight and time to first paint.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import type { RunningWorker } from '../../src/jobs/worker.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { createRenderEngine, type RenderEngine } from '../../src/render/engine.js';
import { findChromium } from '../../src/render/tool-paths.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { startTestWorker } from '../helpers/api-worker.js';
import { failingWhile } from '../helpers/engine.js';
import { waitFor } from '../helpers/wait-for.js';

const SCREENSHOTS = process.env.RENDER_FARM_CONSOLE_SCREENSHOTS === '1';
const SMALL = { width: 256, height: 256, profile: 'fast' } as const;

describe('web console in a browser', () => {
  let api: TestApi;
  let engine: RenderEngine;
  let worker: RunningWorker | null = null;
  let browser: Browser;
  let adminKey: string;
  /** while set, every render fails for good (a bad-data failure: no retry by the queue) */
  let failing = false;

  /** An in-process worker of concurrency 1 on the file's engine. */
  const startFileWorker = (e: RenderEngine) =>
    // chunkSeconds 0.01: renders split into chunks (the job page's timeline has something to show)
    startTestWorker(api, e, { chunkSeconds: 0.01 });
  let flaky: RenderEngine;

  beforeAll(async () => {
    api = await startTestApi();
    engine = await createRenderEngine(api.t.cfg);
    flaky = failingWhile(engine, () => failing);
    worker = await startFileWorker(flaky);
    adminKey = (await createApiKey(api.t.db.db, 'acme', 'prod', { admin: true })).key;
    const chromium = await findChromium(api.t.cfg);
    browser = await puppeteer.launch({
      executablePath: chromium.path,
      headless: true,
      pipe: true,
      args: ['--no-sandbox', '--mute-audio'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await engine?.close();
    await api?.close();
  }, 60_000);

  /** A fresh browser context (no cookies) with the console open at `hash`. */
  async function openConsole(hash = ''): Promise<Page> {
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    await page.setViewport({ width: 1180, height: 860 });
    await page.goto(`${api.url}/console/${hash}`, { waitUntil: 'load' });
    return page;
  }

  async function signIn(page: Page, key = adminKey): Promise<void> {
    await page.waitForSelector('input[name=key]');
    await page.type('input[name=key]', key);
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-nav=overview]');
  }

  /** Submits through the public API with the customer's key; the job id. */
  async function submit(body: Record<string, unknown>): Promise<string> {
    const r = await api.call('POST', '/render-by-share-code', {
      token: api.key,
      body: { shareCode: 'DEMO-GLASS', ...body },
    });
    expect([200, 202], JSON.stringify(r.json)).toContain(r.status);
    return r.json.job_id as string;
  }

  const statusOf = async (jobId: string) => (await api.call('GET', `/render-build/${jobId}`, { token: api.key })).json;

  async function shot(page: Page, name: string, fullPage = false): Promise<void> {
    if (!SCREENSHOTS) return;
    const png = await page.screenshot({ type: 'png', fullPage });
    // a palette PNG: UI screenshots are flat colours, and the docs want them small
    const small = await sharp(png).png({ palette: true, quality: 85, compressionLevel: 9 }).toBuffer();
    await writeFile(path.join(PACKAGE_ROOT, 'docs', 'images', `console-${name}.png`), small);
  }

  it('signs in, shows the worker, previews a build with live progress, turns the sprite, signs out', async () => {
    const page = await openConsole();
    // a wrong key is refused on the page, and the field is emptied
    await page.waitForSelector('input[name=key]');
    await page.type('input[name=key]', 'rfk_prod_' + 'x'.repeat(43));
    await page.click('button[type=submit]');
    await page.waitForSelector('.sign-in .error-note');
    expect(await page.$eval('.sign-in .error-note', (e) => e.textContent)).toContain('invalid_credentials');
    expect(await page.$eval('input[name=key]', (e) => (e as HTMLInputElement).value)).toBe('');

    await signIn(page);
    expect(await page.$eval('.who', (e) => e.textContent)).toContain('acme');
    const live = await page.waitForSelector('tr.worker:not(.worker-gone)');
    expect(await live!.evaluate((e) => e.querySelector('td')?.textContent)).toBeTruthy();

    // a marker in the page: it survives only if the page is never reloaded
    await page.evaluate(() => document.body.setAttribute('data-marker', 'no-reload'));
    await page.click('[data-nav=catalog]');
    const previewButton = await page.waitForSelector('[data-build="DEMO-GLASS"] [data-action=preview]');
    await previewButton!.click();
    const seen = new Set<number>();
    await waitFor(
      'the preview to complete on the page',
      async () => {
        const s = await page
          .$eval('[data-build="DEMO-GLASS"] .preview-job', (e) => ({
            status: e.getAttribute('data-status'),
            progress: Number(e.querySelector('[data-progress]')?.getAttribute('data-progress')),
          }))
          .catch(() => null);
        if (s) seen.add(s.progress);
        return s;
      },
      { until: (s) => s?.status === 'completed', timeoutMs: 120_000, intervalMs: 100 },
    );
    // progress moved on the page between submit and completion, without a reload
    expect(
      [...seen].some((p) => p > 0 && p < 1),
      `progress values seen: ${[...seen].join(', ')}`,
    ).toBe(true);
    expect(await page.$eval('body', (b) => b.getAttribute('data-marker'))).toBe('no-reload');

    // the turntable: a drag changes the frame shown
    const table = await page.waitForSelector('[data-build="DEMO-GLASS"] .turntable');
    expect(await table!.evaluate((e) => e.getAttribute('data-frame'))).toBe('0');
    const box = (await table!.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    const frame = Number(await table!.evaluate((e) => e.getAttribute('data-frame')));
    expect(frame).toBeGreaterThan(0);
    expect(await table!.evaluate((e) => getComputedStyle(e).backgroundPosition)).not.toBe('0px 0px');
    await shot(page, 'catalog');

    await page.click('[data-action=sign-out]');
    await page.waitForSelector('input[name=key]');
    const me = await page.evaluate(async () => (await fetch('/console/api/me')).status);
    expect(me).toBe(401);
    await page.browserContext().close();
  }, 180_000);

  it('a split video job: its chunks on a timeline, the video plays in the page', async () => {
    const jobId = await submit({ format: 'video', ...SMALL });
    const page = await openConsole(`#/jobs/${jobId}`);
    await signIn(page);
    await page.waitForSelector(`.page.job[data-status=completed]`, { timeout: 150_000 });
    // the page says "completed" only with the result to show (not from the event ahead of the row)
    expect(await page.$('.page.job[data-status=completed] .result [data-result=video]')).not.toBeNull();
    const drawn = await page.waitForSelector('.timeline svg[data-chunks]');
    expect(Number(await drawn!.evaluate((e) => e.getAttribute('data-chunks')))).toBeGreaterThan(1);
    expect(await page.$$eval('table.chunks tbody tr', (rows) => rows.length)).toBeGreaterThan(1);
    const video = await waitFor(
      'the video to load in the page',
      // null while the player is not in the page yet
      () =>
        page
          .$eval('video.result-video', (v) => ({
            readyState: (v as HTMLVideoElement).readyState,
            duration: (v as HTMLVideoElement).duration,
          }))
          .catch(() => null),
      { until: (v) => v !== null && v.readyState >= 2 && v.duration > 0, timeoutMs: 30_000 },
    );
    expect(video!.duration).toBeGreaterThan(1);
    await shot(page, 'job', true);
    await page.browserContext().close();
  }, 180_000);

  it('a failed job shows its error, and retry from the page renders it', async () => {
    failing = true;
    const jobId = await submit({ format: 'sprite', ...SMALL, width: 320 });
    await waitFor(`job ${jobId} to fail`, () => statusOf(jobId), {
      until: (j) => j.status === 'error',
      timeoutMs: 60_000,
    });
    failing = false;
    const page = await openConsole(`#/jobs/${jobId}`);
    await signIn(page);
    await page.waitForSelector('[data-error]');
    expect(await page.$eval('[data-error]', (e) => e.textContent)).toContain('injected failure');
    await page.click('[data-action=retry]');
    await page.waitForSelector('dialog.confirm[open]');
    await page.click('dialog.confirm[open] [data-action=confirm]');
    await page.waitForSelector('.page.job[data-status=completed]', { timeout: 120_000 });
    await page.waitForSelector('.result .turntable');
    expect(await page.$('[data-error]')).toBeNull();
    expect((await statusOf(jobId)).status).toBe('completed');
    await page.browserContext().close();
  }, 180_000);

  it('cancel stops a queued job', async () => {
    // no worker: the job stays queued
    await worker?.stop();
    worker = null;
    const jobId = await submit({ format: 'sprite', ...SMALL, width: 320, height: 320 });
    const page = await openConsole(`#/jobs/${jobId}`);
    await signIn(page);
    await page.waitForSelector('.page.job[data-status=queued]');
    await page.click('[data-action=cancel]');
    await page.waitForSelector('dialog.confirm[open]');
    await page.click('dialog.confirm[open] [data-action=confirm]');
    // a cancelled job ends in error, saying it was cancelled; it can be retried, not cancelled again
    await page.waitForSelector('.page.job[data-status=error] [data-error]');
    expect(await page.$eval('[data-error]', (e) => e.textContent)).toContain('cancelled');
    expect(await page.$('[data-action=cancel]')).toBeNull();
    expect(await page.$('[data-action=retry]')).not.toBeNull();
    const after = await statusOf(jobId);
    expect([after.status, after.error]).toEqual(['error', expect.stringContaining('cancelled')]);
    // a worker again: it takes the queue job, finds the render ended and renders nothing
    worker = await startFileWorker(flaky);
    await waitFor(
      'the renders queue to drain',
      () =>
        page.evaluate(
          async () =>
            (await (await fetch('/console/api/overview')).json()) as {
              queues: { kind: string; waiting: number; running: number }[];
            },
        ),
      {
        until: (o) => o.queues.filter((q) => q.kind === 'renders').every((q) => q.waiting === 0 && q.running === 0),
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    if (SCREENSHOTS) {
      // the overview after this file's renders: per-minute bars, store size
      await page.goto(`${api.url}/console/#/overview`, { waitUntil: 'load' });
      await page.waitForSelector('table.workers tr.worker');
      await shot(page, 'overview');
    }
    const end = await statusOf(jobId);
    expect([end.status, end.sprite_url, end.error]).toEqual(['error', null, expect.stringContaining('cancelled')]);
    if (SCREENSHOTS) {
      // page weight and time to first paint, on this machine
      const js = Buffer.from(await (await fetch(`${api.url}/console/app.js`)).arrayBuffer());
      const css = Buffer.from(await (await fetch(`${api.url}/console/app.css`)).arrayBuffer());
      const fresh = await browser.createBrowserContext();
      const p2 = await fresh.newPage();
      await p2.goto(`${api.url}/console/`, { waitUntil: 'load' });
      await p2.waitForSelector('input[name=key]');
      const fcp = await p2.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
      console.log(
        `console page weight: app.js ${(js.length / 1024).toFixed(1)} KB (gzip ${(gzipSync(js).length / 1024).toFixed(1)} KB), ` +
          `app.css ${(css.length / 1024).toFixed(1)} KB (gzip ${(gzipSync(css).length / 1024).toFixed(1)} KB); first contentful paint ${fcp?.toFixed(0)} ms`,
      );
      await fresh.close();
    }
    await page.browserContext().close();
  }, 120_000);
});
