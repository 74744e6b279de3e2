/**
 * The one way Node talks to the stage page: typed calls of `window.renderStage` (StageApi,
 * model/stage-contract.ts) and of the capture helpers the stage installs next to it
 * (PageHelpers, model/capture-contract.ts; farm/src/capture/). `npm run lint:rules` keeps
 * every page.evaluate / evaluateHandle / waitForFunction of src/ in this file, and page code
 * out of strings (scripts/page-code-in-strings.mjs).
 *
 * How a call crosses: page.evaluate with one small anonymous function that only reads window
 * globals, given the call's name and arguments. Puppeteer sends the function's source and the
 * arguments (as JSON values) over CDP and returns the result by value. The function names no
 * helper and defines no named function, so the rewriting the TypeScript loader and bundler
 * apply (`__name` helpers that do not exist in the page) cannot reach it; the code that runs
 * in the page lives in the stage bundle (farm/), typed and bundled with the stage.
 * Arguments and results must be JSON values (builds, options, requests, infos): a function or
 * a DOM node does not cross.
 */
import type { Page } from 'puppeteer-core';
import type { StageApi } from '../model/stage-contract.js';
import type { PageHelpers } from '../model/capture-contract.js';

/** StageApi's methods that take and return JSON, as `renderStage.<method>`. */
type StageMethods = { [K in Exclude<keyof StageApi, 'canvas'> as `renderStage.${K}`]: StageApi[K] };

/** Everything callStage can call in the page, by name. */
export type StageCalls = StageMethods & PageHelpers;
export type StageCall = keyof StageCalls;

/** Calls `fn` (`renderStage.load`, `__rfRun`, ...) in the page with JSON arguments; resolves to its (awaited) result. */
export async function callStage<K extends StageCall>(
  page: Page,
  fn: K,
  ...args: Parameters<StageCalls[K]>
): Promise<Awaited<ReturnType<StageCalls[K]>>> {
  const result: unknown = await page.evaluate(
    (name: string, list: unknown[]) => {
      // `renderStage.load` -> window.renderStage.load, called on renderStage; `__rfRun` -> window.__rfRun
      const dot = name.indexOf('.');
      const owner: unknown = dot < 0 ? window : Reflect.get(window, name.slice(0, dot));
      const f: unknown =
        typeof owner === 'object' && owner !== null
          ? Reflect.get(owner, dot < 0 ? name : name.slice(dot + 1))
          : undefined;
      if (typeof f !== 'function') throw new Error(`${name} is not installed in the page`);
      return Reflect.apply(f, owner, list);
    },
    fn,
    args,
  );
  return result as Awaited<ReturnType<StageCalls[K]>>;
}

/** Waits until the stage bundle has installed `window.renderStage`. */
export async function waitForStage(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForFunction(() => !!window.renderStage, { timeout: timeoutMs });
}
