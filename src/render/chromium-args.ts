/**
 * Chromium command-line flags for rendering (a pure builder, unit-tested without launching).
 * Every flag that stops Chromium from reaching the network is here because a render worker
 * must make no outside requests; the GL flags pick the WebGL implementation.
 */

/** A concrete WebGL implementation: ANGLE over EGL (Mesa llvmpipe or a real GPU) or SwiftShader. */
export type GlBackendName = 'egl' | 'swiftshader';

export interface ChromiumArgsOptions {
  backend: GlBackendName;
  /** a fresh profile directory per launch: a shared one leaks state between renders */
  userDataDir: string;
  /** running as root (containers) needs --no-sandbox */
  noSandbox: boolean;
}

/** GL flags for a backend. ANGLE on EGL measured ~3x faster than SwiftShader on llvmpipe hosts. */
export function glFlags(backend: GlBackendName): string[] {
  return backend === 'egl'
    ? ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist']
    : ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
}

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
    '--disable-breakpad',
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
