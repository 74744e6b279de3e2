/**
 * Searching the console's jobs in a real Chromium against the real API (no worker: jobs stay
 * queued): the start of a job id, as the list shortens it, finds that job; a share code in any
 * case finds that build's jobs; the search is in the address (a link to it works); a customer's
 * key finds only its own jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { submitRender } from '../../src/jobs/submit.js';
import { useTestApi } from '../helpers/api.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';

const api = useTestApi();

describe('console jobs search', () => {
  let b: ConsoleBrowser;
  let adminKey: string;
  let customerKey: string;
  let glassJobs: string[];
  let partsJob: string;
  let strangerJob: string;

  beforeAll(async () => {
    b = await launchConsoleBrowser(api);
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    customerKey = (await createApiKey(api.t.db.db, 'finder-co', 'prod', { console: true })).key;
    const glass = DEMO_BUILDS.find((d) => d.shareCode === 'DEMO-GLASS')!;
    const mine = (await ensureCustomer(api.t.db.db, 'finder-co')).id;
    const stranger = (await ensureCustomer(api.t.db.db, 'stranger-co')).id;
    const submit = async (customerId: string, shareCode: string | undefined, width: number) =>
      (
        await submitRender(api.t.db, {
          customerId,
          parts: glass.parts,
          state: null,
          shareCode,
          options: { format: 'sprite', width, height: 256, profile: 'fast' },
        })
      ).jobId;
    glassJobs = [await submit(mine, 'DEMO-GLASS', 256), await submit(mine, 'DEMO-GLASS', 264)];
    partsJob = await submit(mine, undefined, 272);
    strangerJob = await submit(stranger, 'DEMO-GLASS', 280);
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  /** The job ids the list shows, once it shows `count` rows. */
  async function rows(page: Awaited<ReturnType<ConsoleBrowser['open']>>, count: number): Promise<string[]> {
    await page.waitForFunction(
      (n) => document.querySelectorAll('table.jobs-table tr[data-job]').length === n,
      {},
      count,
    );
    return (
      await page.$$eval('table.jobs-table tr[data-job]', (trs) => trs.map((tr) => tr.getAttribute('data-job')!))
    ).sort();
  }

  async function search(page: Awaited<ReturnType<ConsoleBrowser['open']>>, text: string): Promise<void> {
    await page.$eval('.filters input[name=q]', (e) => ((e as HTMLInputElement).value = ''));
    await page.type('.filters input[name=q]', text);
    await page.click('.filters button[type=submit]');
    await page.waitForFunction((t) => new URLSearchParams(location.hash.split('?')[1]).get('q') === t, {}, text);
  }

  it('finds a job by the start of its id and jobs by share code; the search is in the address', async () => {
    const page = await b.openAs(adminKey, '#/jobs');
    expect(await rows(page, 4)).toHaveLength(4);
    await search(page, partsJob.slice(0, 8));
    expect(await rows(page, 1)).toEqual([partsJob]);
    await search(page, 'demo-glass');
    expect(await rows(page, 3)).toEqual([...glassJobs, strangerJob].sort());
    const link = page.url();
    await page.browserContext().close();

    // the address is the search: opened again, it lists the same jobs
    const again = await b.open(link.slice(link.indexOf('#')));
    await b.signIn(again, adminKey);
    expect(await rows(again, 3)).toEqual([...glassJobs, strangerJob].sort());
    expect(await again.$eval('.filters input[name=q]', (e) => (e as HTMLInputElement).value)).toBe('demo-glass');
    await again.browserContext().close();
  }, 60_000);

  it('filters by every format the form offers without an error', async () => {
    const page = await b.openAs(adminKey, '#/jobs');
    await page.waitForSelector('table.jobs-table tr[data-job]');
    const formats = await page.$$eval('.filters select[name=format] option', (o) =>
      o.map((e) => (e as HTMLOptionElement).value).filter(Boolean),
    );
    expect(formats.length).toBeGreaterThan(0);
    for (const f of formats) {
      await page.select('.filters select[name=format]', f);
      const answer = page.waitForResponse(
        (r) => r.url().includes('/console/api/jobs?') && new URL(r.url()).searchParams.get('format') === f,
      );
      await page.click('.filters button[type=submit]');
      expect((await answer).status(), `format ${f}`).toBe(200);
    }
    await page.browserContext().close();
  }, 60_000);

  it("finds only a customer's own jobs with its key", async () => {
    const page = await b.openAs(customerKey, '#/jobs');
    await search(page, 'DEMO-GLASS');
    expect(await rows(page, 2)).toEqual([...glassJobs].sort());
    await search(page, strangerJob.slice(0, 8));
    await page.waitForSelector('table.jobs-table td.muted');
    expect(await page.$$('table.jobs-table tr[data-job]')).toHaveLength(0);
    await page.browserContext().close();
  }, 60_000);
});
