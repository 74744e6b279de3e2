/**
 * A warm Chromium with the stage page loaded, shared by every render of a process.
 * Launching and loading the stage costs seconds (measured ~4.6 s cold to first frame), so the
 * browser and page are kept between renders. Renders take turns (one page: on 2 cores a second
 * page gained little). A crashed or disconnected browser is relaunched on next use.
 */
import { rm } from 'node:fs/promises';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { childEnvironment } from '../config.js';
import { UnavailableError } from '../errors.js';
import type { GlInfo } from '../model/stage-contract.js';
import { makeTempDir } from '../temp-dirs.js';
import { buildChromiumArgs, type GlBackendName } from './chromium-args.js';
import { afterGpuRender, cpuOrder, launchOrder, MAX_GPU_CRASHES } from './gpu-fallback.js';
import {
  findGpu,
  GpuNotFoundError,
  isSoftwareRenderer,
  shortRenderer,
  VENDOR_DRIVER_FIX,
  type GpuProbe,
} from './gpu-probe.js';
import { callStage, waitForStage } from './call-stage.js';
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
  /** auto: a GPU (ANGLE over Vulkan), then ANGLE over EGL (Mesa llvmpipe or a vendor driver), then SwiftShader */
  glBackend: 'auto' | GlBackendName;
  /** where the Chromium came from: the npm-packaged one has no EGL backend (gpu-fallback.ts launchOrder) */
  chromiumSource?: 'config' | 'system' | 'package';
  /** the stage page to serve (farmStageBundle; render/engine.ts passes it) */
  stage: () => Promise<StageBundle>;
  /** Chromium refuses to run as root without --no-sandbox (containers) */
  noSandbox?: boolean;
  log?: (line: string) => void;
  /** part models the stage server serves by default (a request may bring its own: turn.ts withModelSource) */
  models?: ModelSource | null;
}

/** What a render gets while it holds the pool. */
export interface RenderSession {
  page: Page;
  server: StageServer;
  backend: GlBackendName;
  gl: GlInfo;
  /** whether this session draws on a GPU, and the driver or why none is used */
  gpu: GpuStatus;
  /** set when this render fell back to the CPU because the GPU process crashed: the one line saying so */
  fallback?: string;
}

/** What a session says about the GPU: found (driver and renderer) or not (why), for doctor, /health and top. */
export interface GpuStatus {
  found: boolean;
  detail: string;
}

interface Live extends RenderSession {
  browser: Browser;
  userDataDir: string;
}

/** Reads whether the page's WebGL context is lost (the GPU process died); false when the page cannot answer. */
async function contextLost(page: Page): Promise<boolean> {
  try {
    return await callStage(page, '__rfContextLost');
  } catch {
    return false;
  }
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
  private gpuCrashes = 0;

  constructor(private readonly opts: BrowserPoolOptions) {}

  /** Launches (if needed) and reports the backend and GL strings: the self-test /health shows. */
  async info(): Promise<{ backend: GlBackendName; gl: GlInfo; gpu: GpuStatus }> {
    return this.use(async (s) => ({ backend: s.backend, gl: s.gl, gpu: s.gpu }));
  }

  /**
   * Runs `fn` with exclusive use of the page. On a GPU session whose GPU process crashed (the
   * browser gone, or the page's WebGL context lost), `fn` runs again on a CPU backend with
   * `fallback` set (gpu-fallback.ts), so the render completes and reports it.
   */
  use<T>(fn: (session: RenderSession) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const run = async (): Promise<T> => {
      signal?.throwIfAborted();
      const live = await this.ensure();
      let result: { ok: true; value: T } | { ok: false; err: unknown };
      try {
        result = { ok: true, value: await fn(live) };
      } catch (err) {
        result = { ok: false, err };
      }
      const browserGone = !live.browser.connected || live.page.isClosed();
      const decision = afterGpuRender({
        onGpu: live.gpu.found,
        failed: !result.ok,
        browserGone,
        contextLost: live.gpu.found && !browserGone ? await contextLost(live.page) : false,
        aborted: signal?.aborted ?? false,
      });
      if (decision === 'retry-on-cpu') return this.retryOnCpu(live, fn, browserGone, result.ok ? null : result.err);
      // a crash mid-render leaves no usable page: relaunch next time
      if (browserGone) this.drop(live);
      if (!result.ok) throw result.err;
      return result.value;
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
    if (live)
      await live.then(
        (l) => shutdown(l),
        () => {},
      );
  }

  /** Renders `fn` again on the CPU after the GPU process crashed; the CPU browser is kept only once the GPU is given up. */
  private async retryOnCpu<T>(
    gpuLive: Live,
    fn: (session: RenderSession) => Promise<T>,
    browserGone: boolean,
    err: unknown,
  ): Promise<T> {
    this.gpuCrashes++;
    const why = browserGone ? 'the browser died' : 'the WebGL context was lost';
    const first = err ? `: ${(err as Error).message?.split('\n')[0] ?? String(err)}` : '';
    this.drop(gpuLive);
    const cpu = await this.startWith(
      cpuOrder(
        launchOrder(this.opts.glBackend === 'gpu' ? 'auto' : this.opts.glBackend, this.opts.chromiumSource ?? 'system'),
      ),
      null,
    );
    const fallback = `the GPU process crashed (${why}${first}); this render fell back to the CPU (${cpu.backend}: ${shortRenderer(cpu.gl.renderer)})${this.gpuCrashes >= MAX_GPU_CRASHES ? `; after ${this.gpuCrashes} crashes this worker stays on the CPU` : ''}`;
    this.opts.log?.(`render: ${fallback}`);
    cpu.gpu = { found: false, detail: fallback };
    // kept for later renders (without this render's warning) once the GPU is given up
    if (this.gpuCrashes >= MAX_GPU_CRASHES) this.live = Promise.resolve(cpu);
    try {
      return await fn({ ...cpu, fallback });
    } finally {
      if (this.gpuCrashes < MAX_GPU_CRASHES) void shutdown(cpu);
    }
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

  private start(): Promise<Live> {
    return this.startWith(
      launchOrder(this.opts.glBackend, this.opts.chromiumSource ?? 'system', this.gpuCrashes),
      this.opts.glBackend,
    );
  }

  /**
   * Launches the first backend of `order` that works. The GPU is probed before its launch
   * (gpu-probe.ts) and its renderer string checked after; a software renderer is never taken
   * for a GPU. The line saying which backend it is says why the GPU was not used.
   */
  private async startWith(order: GlBackendName[], requested: 'auto' | GlBackendName | null): Promise<Live> {
    const bundle = await this.opts.stage();
    const server = await startStageServer(bundle, this.opts.models ?? null);
    const problems: string[] = [];
    let noGpu: string | null = order.includes('gpu')
      ? null
      : requested && requested !== 'auto'
        ? `not probed (GL backend ${requested})`
        : 'not probed';
    try {
      for (const backend of order) {
        let probe: GpuProbe | null = null;
        if (backend === 'gpu') {
          probe = findGpu(this.opts.chromiumPath, childEnvironment());
          if (!probe.found) {
            if (requested === 'gpu')
              throw new GpuNotFoundError(`no GPU for WebGL (${probe.reason}): ${probe.fix}, or use --gl auto`);
            noGpu = probe.reason;
            continue;
          }
        }
        try {
          const live = await this.launch(backend, server, probe?.found ? probe.env : undefined);
          const hardware = !isSoftwareRenderer(live.gl.renderer);
          if (backend === 'gpu' && !hardware) {
            await shutdown(live, { keepServer: true });
            throw new Error(`Vulkan gave a software renderer (${live.gl.renderer}): ${VENDOR_DRIVER_FIX}`);
          }
          live.gpu = hardware
            ? { found: true, detail: `${backend}: ${probe?.found ? probe.driver + ', ' : ''}${live.gl.renderer}` }
            : {
                found: false,
                detail: `none found (CPU: ${backend} ${shortRenderer(live.gl.renderer)})${noGpu ? `: ${noGpu}` : ''}`,
              };
          this.opts.log?.(
            `render: WebGL via ${live.backend} (${live.gl.renderer})${hardware ? ' on a GPU' : noGpu ? `; no GPU: ${noGpu}` : ''}`,
          );
          return live;
        } catch (err) {
          const line = (err as Error).message.split('\n')[0];
          if (requested === 'gpu')
            throw new GpuNotFoundError(
              `no GPU for WebGL (Chromium with ANGLE over Vulkan: ${line}): check the vendor Vulkan driver (render-farm doctor), or use --gl auto`,
            );
          if (backend === 'gpu') noGpu = line ?? 'the GPU launch failed';
          problems.push(`${backend}: ${line}`);
          this.opts.log?.(`render: ${backend} WebGL backend failed (${problems.at(-1)})`);
        }
      }
    } catch (err) {
      await server.close();
      throw err;
    }
    await server.close();
    throw new WebGlUnavailableError(
      `WebGL is unavailable in Chromium (${[...(noGpu && !problems.some((p) => p.startsWith('gpu:')) ? [`gpu: ${noGpu}`] : []), ...problems].join('; ')}): install Mesa (apt-get install -y libgl1-mesa-dri libegl1) or use a Chromium with SwiftShader`,
    );
  }

  private async launch(backend: GlBackendName, server: StageServer, env?: Record<string, string>): Promise<Live> {
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
        // the GPU needs the Vulkan loader's ICD list and library path (gpu-probe.ts)
        ...(env ? { env: childEnvironment(env) } : {}),
        timeout: 60_000,
      });
      const page = (await browser.pages())[0] ?? (await browser.newPage());
      // the stage must make no outside requests: the Chromium flags (chromium-args.ts) leave only
      // loopback reachable; no CDP request interception, which would copy every uploaded frame
      await page.goto(server.url + '/', { waitUntil: 'load', timeout: 60_000 });
      await waitForStage(page, 60_000);
      const gl = await callStage(page, 'renderStage.glInfo');
      const actual = backendFromRenderer(backend, gl.renderer);
      if (actual !== backend && this.opts.glBackend === 'auto' && backend === 'egl') {
        // EGL fell back to SwiftShader by itself: say so and carry on with the explicit flags
        throw new Error(`EGL gave ${gl.renderer}`);
      }
      const live: Live = { browser, page, server, backend: actual, gl, userDataDir, gpu: { found: false, detail: '' } };
      browser.on('disconnected', () => {
        if (this.live)
          void this.live.then(
            (l) => {
              if (l === live) this.live = null;
            },
            () => {},
          );
      });
      return live;
    } catch (err) {
      await browser?.close().catch(() => {});
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw err;
    }
  }
}

async function shutdown(live: Live, opts: { keepServer?: boolean } = {}): Promise<void> {
  await live.browser.close().catch(() => live.browser.process()?.kill('SIGKILL'));
  if (!opts.keepServer) await live.server.close().catch(() => {});
  await rm(live.userDataDir, { recursive: true, force: true }).catch(() => {});
}
