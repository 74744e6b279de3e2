/**
 * The console offers a session only the actions its key may take, in a real Chromium against
 * the real API (no worker: jobs stay queued): pregen's fill is for admin keys (a customer's
 * console key would get 403 after confirming), and cancel is not offered to a customer whose
 * job shares its render with another customer's (cancelJob refuses it with 409); an admin gets both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { ensureCustomer } from '../../src/auth/customers.js';
import { getBuild } from '../../src/catalog/builds.js';
import { submitRender } from '../../src/jobs/submit.js';
import { useTestApi } from '../helpers/api.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';

const api = useTestApi();

describe('console actions by session', () => {
  let b: ConsoleBrowser;
  let adminKey: string;
  let customerKey: string;

  beforeAll(async () => {
    b = await launchConsoleBrowser(api);
    adminKey = (await createApiKey(api.t.db.db, 'ops', 'prod', { admin: true })).key;
    customerKey = (await createApiKey(api.t.db.db, 'viewer-co', 'prod', { console: true })).key;
  }, 60_000);

  afterAll(async () => {
    await b?.close();
  });

  it('offers pregen fill to an admin key only', async () => {
    const customer = await b.openAs(customerKey, '#/pregen');
    await customer.waitForSelector('tr[data-variant="sprite/fast"]');
    expect(await customer.$$('[data-action=fill]')).toHaveLength(0);
    expect(await customer.$eval('[data-note=fill-admin-only]', (e) => e.textContent)).toContain('admin key');
    // what the page no longer offers is refused by the server anyway
    const refused = await customer.evaluate(async () => {
      const { csrf } = (await (await fetch('/console/api/me')).json()) as { csrf: string };
      const r = await fetch('/console/api/pregen/fill', {
        method: 'POST',
        headers: { 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: '{"format":"sprite","profile":"fast"}',
      });
      return [r.status, ((await r.json()) as { error: string }).error];
    });
    expect(refused).toEqual([403, 'admin_required']);
    await customer.browserContext().close();

    const admin = await b.openAs(adminKey, '#/pregen');
    await admin.waitForSelector('tr[data-variant="sprite/fast"] [data-action=fill]:not([disabled])');
    expect(await admin.$('[data-note=fill-admin-only]')).toBeNull();
    await admin.browserContext().close();
  }, 60_000);

  it("does not offer cancel to a customer whose job shares its render with another customer's", async () => {
    const build = (await getBuild(api.t.db, 'DEMO-GLASS'))!;
    const request = {
      parts: build.parts,
      state: null,
      options: { format: 'sprite', width: 264, height: 264, profile: 'fast' },
    } as const;
    const viewer = (await ensureCustomer(api.t.db.db, 'viewer-co')).id;
    const other = (await ensureCustomer(api.t.db.db, 'other-co')).id;
    const mine = await submitRender(api.t.db, { customerId: viewer, ...request });
    const theirs = await submitRender(api.t.db, { customerId: other, ...request });
    expect(theirs.render.id).toBe(mine.render.id);

    const customer = await b.openAs(customerKey, `#/jobs/${mine.jobId}`);
    await customer.waitForSelector('.page.job[data-status=queued]');
    expect(await customer.$('[data-action=cancel]')).toBeNull();
    await customer.browserContext().close();

    const admin = await b.openAs(adminKey, `#/jobs/${mine.jobId}`);
    await admin.waitForSelector('.page.job[data-status=queued] [data-action=cancel]');
    await admin.browserContext().close();

    // a job of its own alone on its render: the customer may cancel it
    const alone = await submitRender(api.t.db, {
      customerId: viewer,
      ...request,
      options: { ...request.options, width: 272, height: 272 },
    });
    const own = await b.openAs(customerKey, `#/jobs/${alone.jobId}`);
    await own.waitForSelector('.page.job[data-status=queued] [data-action=cancel]');
    await own.browserContext().close();
  }, 60_000);
});
