/**
 * A warm Chromium with the stage page loaded, shared by every render of a process.
 * Launching and loading the stage costs seconds (measured ~4.6 s cold to first frame), so the
 * browser and page are kept between renders. Renders take turns (one page: on 2 cores a second
 * page gained little). A crashed or disconnected browser is relaunched on next use.
 */
import { rm } from 'node:fs/promises';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { UnavailableError } from '../errors.js';
import type { GlInfo } from '../model/stage-contract.js';
import { makeTempDir } from '../temp-dirs.js';
import { buildChromiumArgs, type GlBackendName } from './chromium-args.js';
import { PAGE_CAPTURE_SOURCE } from './page-capture.js';
import { callStage, injectPageSource, waitForStage } from './call-stage.js';
import type { ModelSource } from './model-source.js';
import { startStageServer, type StageBundle, type StageServer } from './stage-server.js';

/** WebGL could not be brought up with any backend. */
export class WebGlUnavailableError extends UnavailableError {
  constructor(message: string) {
    super('webgl_unavailable', message);
    this.name = 'WebGlUnavailableError';
  }
}

export interface BrowserPoolOptions {
  chromiumPath: string;
  /** auto: ANGLE over EGL (Mesa llvmpipe or a GPU), then SwiftShader */
  glBackend: 'auto' | GlBackendName;
  /** the stage page to serve (farmStageBundle; render/engine.ts passes it) */
  stage: () => Promise<StageBundle>;
  /** Chromium refuses to run as root without --no-sandbox (containers) */
  noSandbox?: boolean;
  log?: (line: string) => void;
  /** part models the stage server serves by default (a request may bring its own: renderer.ts) */
  models?: ModelSource | null;
}

/** What a render gets while it holds the pool. */
export interface RenderSession {
  page: Page;
  server: StageServer;
  backend: GlBackendName;
  gl: GlInfo;
}

interface Live extends RenderSession {
  browser: Browser;
  userDataDir: string;
}

/** The backend actually running, from the renderer string (EGL can silently fall back to SwiftShader). */
export function backendFromRenderer(requested: GlBackendName, renderer: string): GlBackendName {
  return /swiftshader/i.test(renderer) ? 'swiftshader' : requested;
}

/** One warm browser + page; `use` runs renders one at a time. */
export class BrowserPool {
  private live: Promise<Live> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly opts: BrowserPoolOptions) {}

  /** Launches (if needed) and reports the backend and GL strings: the self-test /health shows. */
  async info(): Promise<{ backend: GlBackendName; gl: GlInfo }> {
    return this.use(async (s) => ({ backend: s.backend, gl: s.gl }));
  }

  /** Runs `fn` with exclusive use of the page. */
  use<T>(fn: (session: RenderSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const run = async (): Promise<T> => {
      signal?.throwIfAborted();
      const live = await this.ensure();
      try {
        return await fn(live);
      } catch (err) {
        // a crash mid-render leaves no usable page: relaunch next time
        if (!live.browser.connected || live.page.isClosed()) this.drop(live);
        throw err;
      }
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => {});
    return result;
  }

  /** Closes the browser and the stage server; the pool cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const live = this.live;
    this.live = null;
    if (live) await live.then((l) => shutdown(l), () => {});
  }

  private drop(live: Live): void {
    void shutdown(live);
    this.live = null;
  }

  private async ensure(): Promise<Live> {
    if (this.closed) throw new Error('browser pool is closed');
    if (this.live) {
      const live = await this.live.catch(() => null);
      if (live && live.browser.connected && !live.page.isClosed()) return live;
      if (live) await shutdown(live);
      this.live = null;
    }
    this.live = this.start();
    this.live.catch(() => {
      this.live = null;
    });
    return this.live;
  }

  private async start(): Promise<Live> {
    const bundle = await this.opts.stage();
    const server = await startStageServer(bundle, this.opts.models ?? null);
    const order: GlBackendName[] = this.opts.glBackend === 'auto' ? ['egl', 'swiftshader'] : [this.opts.glBackend];
    const problems: string[] = [];
    try {
      for (const backend of order) {
        try {
          return await this.launch(backend, server);
        } catch (err) {
          problems.push(`${backend}: ${(err as Error).message.split('\n')[0]}`);
          this.opts.log?.(`render: ${backend} WebGL backend failed (${problems.at(-1)})`);
        }
      }
    } catch (err) {
      await server.close();
      throw err;
    }
    await server.close();
    throw new WebGlUnavailableError(
      `WebGL is unavailable in Chromium (${problems.join('; ')}): install Mesa (apt-get install -y libgl1-mesa-dri libegl1) or use a Chromium with SwiftShader`,
    );
  }

  private async launch(backend: GlBackendName, server: StageServer): Promise<Live> {
    const userDataDir = await makeTempDir('chromium');
    let browser: Browser | null = null;
    try {
      browser = await puppeteer.launch({
        executablePath: this.opts.chromiumPath,
        headless: true,
        pipe: true,
        args: buildChromiumArgs({ backend, userDataDir, noSandbox: this.opts.noSandbox ?? true }),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        protocolTimeout: 300_000,
        timeout: 60_000,
      });
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      // the stage must make no outside requests: the Chromium flags (chromium-args.ts) leave only
      // loopback reachable; no CDP request interception, which would copy every uploaded frame
      await page.goto(server.url + '/', { waitUntil: 'load', timeout: 60_000 });
      await waitForStage(page, 60_000);
      await injectPageSource(page, PAGE_CAPTURE_SOURCE);
      const gl = await callStage(page, 'renderStage.glInfo');
      const actual = backendFromRenderer(backend, gl.renderer);
      if (actual !== backend && this.opts.glBackend === 'auto' && backend === 'egl') {
        // EGL fell back to SwiftShader by itself: say so and carry on with the explicit flags
        throw new Error(`EGL gave ${gl.renderer}`);
      }
      this.opts.log?.(`render: WebGL via ${actual} (${gl.renderer})`);
      const live: Live = { browser, page, server, backend: actual, gl, userDataDir };
      browser.on('disconnected', () => {
        if (this.live) void this.live.then((l) => { if (l === live) this.live = null; }, () => {});
      });
      return live;
    } catch (err) {
      await browser?.close().catch(() => {});
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
  }
}

async function shutdown(live: Live): Promise<void> {
  await live.browser.close().catch(() => live.browser.process()?.kill('SIGKILL'));
  await live.server.close().catch(() => {});
  await rm(live.userDataDir, { recursive: true, force: true }).catch(() => {});
}
