/**
 * The console's sign-in page in a real Chromium against the real API: it names both keys that
 * sign in (the demo key `up` printed, kept in the data dir as demo-api-key, and a key from
 * `keys create --console`), and so does a wrong key's error; the demo key, as `up` makes and
 * keeps it, signs in.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoApiKey } from '../../src/auth/demo-key.js';
import { useTestApi } from '../helpers/api.js';
import { launchConsoleBrowser, type ConsoleBrowser } from '../helpers/console-browser.js';

const api = useTestApi();

/** Says both ways to a key. */
function namesBothKeys(text: string | null | undefined): void {
  expect(text).toContain('render-farm up');
  expect(text).toContain('.render-farm/demo-api-key');
  expect(text).toMatch(/render-farm keys create --customer NAME --console/);
}

describe('console sign-in', () => {
  let b: ConsoleBrowser;
  beforeAll(async () => {
    b = await launchConsoleBrowser(api);
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it("names the demo key and keys create --console, on the page and in a wrong key's error; the demo key signs in", async () => {
    const page = await b.open();
    await page.waitForSelector('input[name=key]');
    namesBothKeys(await page.$eval('.sign-in form', (e) => e.textContent));

    await page.type('input[name=key]', 'rfk_prod_' + 'x'.repeat(43));
    await page.click('button[type=submit]');
    await page.waitForSelector('.sign-in .error-note');
    const error = await page.$eval('.sign-in .error-note', (e) => e.textContent);
    expect(error).toContain('invalid_credentials');
    namesBothKeys(error);

    // the key `up` prints, read back from where it keeps it
    await demoApiKey(api.t.db.db, api.t.cfg.dataDir);
    const demo = (await readFile(path.join(api.t.cfg.dataDir, 'demo-api-key'), 'utf8')).trim();
    await b.signIn(page, demo);
    expect(await page.$eval('.who', (e) => e.getAttribute('data-customer'))).toBe('demo');
    await page.browserContext().close();
  }, 60_000);
});
