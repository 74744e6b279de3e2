/** Pure pieces of the render engine: Chromium flags, backend naming, frame ordering. */
import { describe, expect, it } from 'vitest';
import { backendFromRenderer } from '../../src/render/browser-pool.js';
import { buildChromiumArgs, glFlags, ON_DEVICE_MODEL_SWITCH } from '../../src/render/chromium-args.js';
import { FrameSequencer } from '../../src/render/frame-sequencer.js';

describe('buildChromiumArgs', () => {
  it('keeps Chromium off the network and uses a fresh profile', () => {
    const args = buildChromiumArgs({ backend: 'egl', userDataDir: '/tmp/p', noSandbox: true });
    for (const flag of [
      '--no-sandbox',
      '--user-data-dir=/tmp/p',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ]) {
      expect(args).toContain(flag);
    }
    expect(buildChromiumArgs({ backend: 'egl', userDataDir: '/tmp/p', noSandbox: false })).not.toContain(
      '--no-sandbox',
    );
    // outside hosts are unreachable: a dead proxy for everything but loopback, no name resolution
    expect(args).toEqual(
      expect.arrayContaining([
        '--proxy-server=http://127.0.0.1:9',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
      ]),
    );
  });

  it('gives the optimization guide a performance class, so it starts no on-device model service (docs/rendering.md)', () => {
    // test/render/on-device-model.test.ts checks the process itself (slow: it waits 4 min)
    for (const backend of ['gpu', 'egl', 'swiftshader'] as const) {
      expect(buildChromiumArgs({ backend, userDataDir: '/tmp/p', noSandbox: true })).toContain(
        '--optimization-guide-performance-class=2',
      );
    }
    expect(ON_DEVICE_MODEL_SWITCH).toBe('--optimization-guide-performance-class=2');
  });

  it('selects ANGLE over EGL or SwiftShader', () => {
    expect(glFlags('egl')).toEqual(expect.arrayContaining(['--use-gl=angle', '--use-angle=gl-egl']));
    expect(glFlags('swiftshader')).toEqual(
      expect.arrayContaining(['--use-angle=swiftshader', '--enable-unsafe-swiftshader']),
    );
    expect(backendFromRenderer('egl', 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))')).toBe(
      'swiftshader',
    );
    expect(backendFromRenderer('egl', 'ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)')).toBe(
      'egl',
    );
  });
});

describe('FrameSequencer', () => {
  it('delivers frames in render order whatever order they arrive in', async () => {
    const got: number[] = [];
    const seq = new FrameSequencer([0, 1, 2, 3], async (i) => {
      got.push(i);
    });
    await Promise.all([
      seq.push(2, Buffer.alloc(0)),
      seq.push(0, Buffer.alloc(0)),
      seq.push(3, Buffer.alloc(0)),
      seq.push(1, Buffer.alloc(0)),
    ]);
    expect(got).toEqual([0, 1, 2, 3]);
    expect(seq.delivered).toBe(4);
    await expect(seq.push(9, Buffer.alloc(0))).rejects.toThrow(/unexpected/);
  });
});
