/**
 * The web console in the Chromium the farm finds, for the console's browser tests: each page in
 * a fresh browser context (no cookies), signed in through the sign-in form as a person does.
 * console-ui.test.ts is the full tour (with a worker that renders); the page tests use this.
 */
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findChromium } from '../../src/render/tool-paths.js';
import type { TestApi } from './api.js';

export interface ConsoleBrowser {
  browser: Browser;
  /** A fresh browser context (no cookies) with the console open at `hash` (e.g. `#/pregen`). */
  open(hash?: string): Promise<Page>;
  /** Signs in through the form with `key` and waits for the navigation. */
  signIn(page: Page, key: string): Promise<void>;
  /** open + signIn */
  openAs(key: string, hash?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function launchConsoleBrowser(api: TestApi): Promise<ConsoleBrowser> {
  const chromium = await findChromium(api.t.cfg);
  const browser = await puppeteer.launch({
    executablePath: chromium.path,
    headless: true,
    pipe: true,
    args: ['--no-sandbox', '--mute-audio'],
  });
  const open = async (hash = '') => {
    const ctx = await browser.createBrowserContext();
    const page = await ctx.newPage();
    await page.setViewport({ width: 1180, height: 860 });
    await page.goto(`${api.url}/console/${hash}`, { waitUntil: 'load' });
    return page;
  };
  const signIn = async (page: Page, key: string) => {
    await page.waitForSelector('input[name=key]');
    await page.type('input[name=key]', key);
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-nav=overview]');
  };
  return {
    browser,
    open,
    signIn,
    openAs: async (key, hash = '') => {
      const page = await open(hash);
      await signIn(page, key);
      return page;
    },
    close: () => browser.close(),
  };
}
