/**
 * Chromium command-line flags for rendering (a pure builder, unit-tested without launching).
 * Every flag that stops Chromium from reaching the network is here because a render worker
 * must make no outside requests; the GL flags pick the WebGL implementation.
 */

/**
 * A concrete WebGL implementation: ANGLE over Vulkan on a GPU (gpu-probe.ts), ANGLE over EGL
 * (Mesa llvmpipe, or a vendor's EGL driver), or SwiftShader.
 */
export type GlBackendName = 'gpu' | 'egl' | 'swiftshader';

export interface ChromiumArgsOptions {
  backend: GlBackendName;
  /** a fresh profile directory per launch: a shared one leaks state between renders */
  userDataDir: string;
  /** running as root (containers) needs --no-sandbox */
  noSandbox: boolean;
}

/** GL flags for a backend. ANGLE on EGL measured ~3x faster than SwiftShader on llvmpipe hosts. */
export function glFlags(backend: GlBackendName): string[] {
  switch (backend) {
    case 'gpu':
      // the NVIDIA driver cannot answer ANGLE's surfaceless query: the GPU process crashed
      // (exit_code=11) without this (bench/device/README.md); the ICD list is gpu-probe.ts's
      return [
        '--use-gl=angle',
        '--use-angle=vulkan',
        '--disable-angle-features=supportsSurfacelessQueryExtension',
        '--ignore-gpu-blocklist',
      ];
    case 'egl':
      return ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'];
    case 'swiftshader':
      return ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
  }
}

/**
 * Chromium features a render does not need that start processes or spend CPU in the
 * background (puppeteer merges this list with its own: Translate, MediaRouter, OptimizationHints).
 */
export const DISABLED_FEATURES = [
  // browser UI preloaded into a renderer of its own (the omnibox popup), never shown headless
  'PreloadTopChromeWebUI',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
  // the optimization guide and its on-device model execution (the on-device model service
  // itself is kept from starting by ON_DEVICE_MODEL_SWITCH: these features alone do not)
  'OptimizationGuideModelExecution',
  'OptimizationGuideOnDeviceModel',
  'OptGuideOnDeviceModel',
  'OnDeviceModelPerformanceParams',
  'OnDeviceModelBackgroundDownload',
  'OptimizationGuideModelDownloading',
  'OptimizationHintsFetching',
  'OptimizationTargetPrediction',
  'SegmentationPlatform',
  // media routing (Cast discovery), translate, prerendering: nothing for a render page
  'MediaRouter',
  'DialMediaRouteProvider',
  'Translate',
  'Prerender2',
  'HeavyAdIntervention',
  'LensOverlay',
];

/**
 * Chromium 156 still starts the on-device model service 3 min after launch (a utility process,
 * ~138 MB RSS, that spent half a core for 90 s in a scale run) with every feature above off,
 * and with --disable-field-trial-config: the optimization guide's performance classifier
 * launches it to benchmark the device once per Chromium version. Given a performance class on
 * the command line, the classifier takes it as known and launches nothing; 2 is "very low",
 * below every class an on-device model is offered to.
 */
export const ON_DEVICE_MODEL_SWITCH = '--optimization-guide-performance-class=2';

/** The full argument list passed to Chromium (puppeteer adds --headless and the debugging pipe). */
export function buildChromiumArgs(opts: ChromiumArgsOptions): string[] {
  return [
    ...(opts.noSandbox ? ['--no-sandbox', '--disable-setuid-sandbox'] : []),
    `--user-data-dir=${opts.userDataDir}`,
    // no phoning home: each of these otherwise opens connections on a fresh profile
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-domain-reliability',
    '--disable-client-side-phishing-detection',
    '--metrics-recording-only',
    // no crash reports (Debian's chromium starts no crash handler then; --disable-crashpad-for-testing
    // made its first page unattachable for puppeteer: "Requesting main frame too early")
    '--disable-breakpad',
    // no processes beyond the browser, the GPU process and one renderer (test/render/idle-cpu):
    // the network service runs on a browser thread (the page talks to loopback only); no zygote
    // (it forks renderers for the sandbox, which is off); one renderer, no spare one kept warm
    // for a next navigation, no per-site processes (one page of our own). The storage service
    // stays a process of its own: Chromium starts it out of process unconditionally, short of
    // --single-process, which would put the GPU and renderer into the browser too.
    ...(opts.noSandbox ? ['--no-zygote'] : []),
    '--enable-features=NetworkServiceInProcess2',
    '--renderer-process-limit=1',
    '--disable-site-isolation-trials',
    `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ON_DEVICE_MODEL_SWITCH,
    '--disable-extensions',
    '--disable-component-extensions-with-background-pages',
    '--disable-default-apps',
    // a hidden tab must keep rendering at full speed
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
    // /dev/shm is tiny in containers; Chromium then crashes on large canvases
    '--disable-dev-shm-usage',
    // the page may reach the loopback stage server only. Blocked here rather than with CDP
    // request interception, which copies every POSTed frame through the DevTools pipe (measured
    // +40 ms CPU in Node and +50 ms in the browser per 1 MB upload): every proxied request goes
    // to a closed port (loopback bypasses proxies implicitly), no host name resolves, and WebRTC
    // may not send UDP around the proxy
    '--proxy-server=http://127.0.0.1:9',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--mute-audio',
    '--hide-scrollbars',
    ...glFlags(opts.backend),
  ];
}
