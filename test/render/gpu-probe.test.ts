/** Pure parts of the GPU backend: the probe's decision, the ICD list, the library path, renderer strings, the crash fallback. */
import { describe, expect, it } from 'vitest';
import { buildChromiumArgs, glFlags } from '../../src/render/chromium-args.js';
import { afterGpuRender, cpuOrder, launchOrder, MAX_GPU_CRASHES } from '../../src/render/gpu-fallback.js';
import {
  decideGpu,
  gpuLibraryPath,
  isSoftwareIcd,
  isSoftwareRenderer,
  shortRenderer,
  VENDOR_DRIVER_FIX,
  vulkanDriverFiles,
  type GpuFacts,
} from '../../src/render/gpu-probe.js';

const NV_ICD = { manifest: '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json', library: 'libGLX_nvidia.so.0' };
const LVP_ICD = {
  manifest: '/usr/share/vulkan/icd.d/lvp_icd.x86_64.json',
  library: '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so',
};
const INTEL_ICD = {
  manifest: '/usr/share/vulkan/icd.d/intel_icd.x86_64.json',
  library: '/usr/lib/x86_64-linux-gnu/libvulkan_intel.so',
};

/** The lent H100 machine as bench/device/README.md found it, once libGLdispatch was supplied. */
const h100: GpuFacts = {
  icds: [NV_ICD],
  devices: ['/dev/nvidia0'],
  chromiumDir: '/opt/chromium',
  libvulkanDir: '/opt/chromium',
  glDispatchDir: '/opt/glvnd/lib',
  swiftshaderIcd: '/opt/chromium/vk_swiftshader_icd.json',
  env: { LD_LIBRARY_PATH: '/opt/nss' },
};

describe('renderer strings', () => {
  it('never takes a software renderer for a GPU', () => {
    for (const soft of [
      'ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)',
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      'ANGLE (Mesa, Vulkan 1.3.255 (llvmpipe (LLVM 15.0.6, 256 bits) (0x00000000)), lavapipe)',
      'softpipe',
      'Google SwiftShader',
      'ANGLE (Unknown, Microsoft Basic Render Driver Direct3D11)',
      'Software Rasterizer',
    ])
      expect(isSoftwareRenderer(soft), soft).toBe(true);
    for (const hw of [
      'ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA H100 80GB HBM3 (0x00002330)), NVIDIA)',
      'ANGLE (AMD, AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 17.0.6), OpenGL ES 3.2)',
      'ANGLE (Intel, Mesa Intel(R) UHD Graphics 630 (CFL GT2), OpenGL ES 3.2)',
    ])
      expect(isSoftwareRenderer(hw), hw).toBe(false);
  });

  it('names them briefly', () => {
    expect(shortRenderer('ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)')).toBe('llvmpipe');
    expect(
      shortRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'),
    ).toBe('SwiftShader');
    expect(shortRenderer('ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA H100 80GB HBM3 (0x00002330)), NVIDIA)')).toBe(
      'NVIDIA NVIDIA H100 80GB HBM3',
    );
  });
});

describe('decideGpu', () => {
  it('finds the NVIDIA GPU with the ICD list (SwiftShader after the vendor, for VK_EXT_headless_surface) and the library path', () => {
    const p = decideGpu(h100);
    expect(p).toEqual({
      found: true,
      driver: 'nvidia_icd.json (libGLX_nvidia.so.0)',
      env: {
        VK_DRIVER_FILES: `${NV_ICD.manifest}:/opt/chromium/vk_swiftshader_icd.json`,
        LD_LIBRARY_PATH: '/opt/chromium:/opt/glvnd/lib:/opt/nss',
      },
    });
  });

  it("lists one manifest per driver library (the H200 host had NVIDIA's in two ICD dirs)", () => {
    const twice = { manifest: '/usr/share/vulkan/icd.d/nvidia_icd.json', library: 'libGLX_nvidia.so.0' };
    const p = decideGpu({ ...h100, icds: [NV_ICD, twice] });
    expect(p).toMatchObject({ found: true, driver: 'nvidia_icd.json (libGLX_nvidia.so.0)' });
    expect(p.found && p.env.VK_DRIVER_FILES).toBe(`${NV_ICD.manifest}:/opt/chromium/vk_swiftshader_icd.json`);
  });

  it('names the packages when the vendor driver is there but ANGLE still gets SwiftShader', () => {
    // what made the H200's NVIDIA ICD start (2026-11-27): the glvnd libraries, not libGLdispatch alone
    for (const pkg of ['libglvnd0', 'libglx0', 'libgl1', 'libegl1', 'libvulkan1'])
      expect(VENDOR_DRIVER_FIX).toContain(pkg);
  });

  it('says what is missing: only software ICDs, no device, no libvulkan, no glvnd for NVIDIA', () => {
    expect(decideGpu({ ...h100, icds: [LVP_ICD] })).toMatchObject({
      found: false,
      reason: 'no Vulkan driver for a GPU (only software ones: lvp_icd.x86_64.json)',
    });
    expect(decideGpu({ ...h100, icds: [] })).toMatchObject({
      found: false,
      reason: expect.stringMatching(/^no Vulkan driver \(no ICD in /),
    });
    // this CPU machine: Mesa's Intel and lavapipe ICDs, no /dev/dri
    expect(decideGpu({ ...h100, icds: [INTEL_ICD, LVP_ICD], devices: [] })).toMatchObject({
      found: false,
      reason: 'Vulkan drivers installed (intel_icd.x86_64.json) but no GPU device (/dev/nvidia*, /dev/dri/renderD*)',
      fix: expect.stringMatching(/--gpus all/),
    });
    expect(decideGpu({ ...h100, libvulkanDir: null })).toMatchObject({
      found: false,
      fix: 'apt-get install -y libvulkan1',
    });
    expect(decideGpu({ ...h100, glDispatchDir: null })).toMatchObject({
      found: false,
      reason: expect.stringMatching(/libGLdispatch\.so\.0/),
      fix: 'apt-get install -y libglvnd0',
    });
    // a Mesa GPU driver needs no glvnd dispatch lib
    expect(
      decideGpu({ ...h100, icds: [INTEL_ICD], devices: ['/dev/dri/renderD128'], glDispatchDir: null }),
    ).toMatchObject({ found: true });
  });

  it('classifies ICDs and keeps an operator-set ICD list', () => {
    expect(isSoftwareIcd(LVP_ICD)).toBe(true);
    expect(
      isSoftwareIcd({ manifest: '/usr/lib/chromium/vk_swiftshader_icd.json', library: './libvk_swiftshader.so' }),
    ).toBe(true);
    expect(isSoftwareIcd(NV_ICD)).toBe(false);
    expect(vulkanDriverFiles(['/a.json'], '/s.json', {})).toBe('/a.json:/s.json');
    expect(vulkanDriverFiles(['/a.json'], null, {})).toBe('/a.json');
    expect(vulkanDriverFiles(['/a.json'], '/s.json', { VK_ICD_FILENAMES: '/mine.json' })).toBe('/mine.json');
    expect(gpuLibraryPath(['/x', null, '/y', '/x'], '/y:/z')).toBe('/x:/y:/z');
    expect(gpuLibraryPath([null], undefined)).toBe('');
  });
});

describe('GPU flags', () => {
  it('asks ANGLE for Vulkan without the surfaceless query the NVIDIA driver crashed on', () => {
    expect(glFlags('gpu')).toEqual([
      '--use-gl=angle',
      '--use-angle=vulkan',
      '--disable-angle-features=supportsSurfacelessQueryExtension',
      '--ignore-gpu-blocklist',
    ]);
    expect(buildChromiumArgs({ backend: 'gpu', userDataDir: '/tmp/p', noSandbox: true })).toContain(
      '--use-angle=vulkan',
    );
  });
});

describe('launch order and the GPU crash fallback', () => {
  it('tries the GPU first, then EGL (not in the npm Chromium), then SwiftShader; an explicit backend alone', () => {
    expect(launchOrder('auto', 'system')).toEqual(['gpu', 'egl', 'swiftshader']);
    expect(launchOrder('auto', 'package')).toEqual(['gpu', 'swiftshader']);
    expect(launchOrder('egl', 'system')).toEqual(['egl']);
    expect(launchOrder('gpu', 'system')).toEqual(['gpu']);
    expect(launchOrder('auto', 'system', MAX_GPU_CRASHES)).toEqual(['egl', 'swiftshader']);
    expect(launchOrder('auto', 'system', MAX_GPU_CRASHES - 1)).toContain('gpu');
    expect(cpuOrder(['gpu', 'egl', 'swiftshader'])).toEqual(['egl', 'swiftshader']);
    expect(cpuOrder(['gpu'])).toEqual(['egl', 'swiftshader']);
  });

  it('renders again on the CPU when the GPU process died, never otherwise', () => {
    const base = { onGpu: true, failed: false, browserGone: false, contextLost: false, aborted: false };
    expect(afterGpuRender(base)).toBe('ok');
    // a lost context leaves blank frames without an error: still a crash
    expect(afterGpuRender({ ...base, contextLost: true })).toBe('retry-on-cpu');
    expect(afterGpuRender({ ...base, failed: true, browserGone: true })).toBe('retry-on-cpu');
    expect(afterGpuRender({ ...base, failed: true })).toBe('rethrow');
    // a cancel or time limit is the caller's, and a CPU session has no GPU to lose
    expect(afterGpuRender({ ...base, failed: true, browserGone: true, aborted: true })).toBe('rethrow');
    expect(afterGpuRender({ ...base, onGpu: false, failed: true, browserGone: true })).toBe('rethrow');
    expect(afterGpuRender({ ...base, onGpu: false })).toBe('ok');
  });
});
