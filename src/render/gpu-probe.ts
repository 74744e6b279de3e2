/**
 * Finding a GPU for WebGL before Chromium is launched on it, and telling a GPU from a software
 * renderer afterwards. What made ANGLE over Vulkan work on an NVIDIA host (bench/device/README.md)
 * is here as code: libvulkan.so.1 and libGLdispatch.so.0 on the library path (the NVIDIA ICD gives
 * no vkCreateInstance without glvnd's dispatch lib), the SwiftShader ICD listed after the vendor's
 * (headless ANGLE asks for VK_EXT_headless_surface, which the NVIDIA ICD lacks; ANGLE still picks
 * the vendor's device), and the ANGLE feature the NVIDIA driver crashes on (chromium-args.ts).
 * The pure parts (facts -> decision, ICD list, library path, renderer strings) are unit-tested;
 * `findGpu` only gathers the facts from the filesystem.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UnavailableError } from '../errors.js';

/** A GPU was asked for (`--gl gpu`) and none can be used; the message names what is missing. */
export class GpuNotFoundError extends UnavailableError {
  constructor(message: string) {
    super('gpu_not_found', message);
    this.name = 'GpuNotFoundError';
  }
}

/** Where Vulkan ICD manifests live: the NVIDIA k8s device plugin's, the container toolkit's, the distribution's. */
export const VULKAN_ICD_DIRS = [
  '/usr/local/nvidia/share/vulkan/icd.d',
  '/etc/vulkan/icd.d',
  '/usr/share/vulkan/icd.d',
  '/usr/local/share/vulkan/icd.d',
];
/** Where the vendor's user-space libraries (libGLdispatch, libvulkan) may be. */
export const GPU_LIB_DIRS = [
  '/usr/local/nvidia/lib64',
  '/usr/lib/x86_64-linux-gnu',
  '/usr/lib64',
  '/usr/lib/aarch64-linux-gnu',
  '/usr/lib',
];
/** Where a packaged Chromium keeps ANGLE's libs (/usr/bin/chromium is a shell wrapper on Debian). */
const CHROMIUM_LIB_DIRS = ['/usr/lib/chromium', '/usr/lib/chromium-browser', '/opt/google/chrome'];

/** What the probe found on the machine (gathered by `findGpu`, decided by `decideGpu`). */
export interface GpuFacts {
  /** Vulkan ICD manifests: file name and the library it names */
  icds: { manifest: string; library: string }[];
  /** GPU device nodes present (/dev/nvidia0, /dev/dri/renderD128) */
  devices: string[];
  /** the directory ANGLE's libs are in (the chromium binary's), if known */
  chromiumDir: string | null;
  /** libvulkan.so.1 found there or in a library dir */
  libvulkanDir: string | null;
  /** libGLdispatch.so.0 found in a library dir (the NVIDIA ICD needs it) */
  glDispatchDir: string | null;
  /** SwiftShader's ICD manifest beside the chromium binary */
  swiftshaderIcd: string | null;
  /** LD_LIBRARY_PATH, VK_DRIVER_FILES / VK_ICD_FILENAMES of this process */
  env: { LD_LIBRARY_PATH?: string; VK_DRIVER_FILES?: string; VK_ICD_FILENAMES?: string };
}

export type GpuProbe =
  | { found: true; driver: string; env: Record<string, string> }
  | { found: false; reason: string; fix: string };

/** Software renderers (Mesa llvmpipe/softpipe/lavapipe, SwiftShader, "Software"): never reported as a GPU. */
export function isSoftwareRenderer(renderer: string): boolean {
  return /llvmpipe|softpipe|lavapipe|swiftshader|software|basic render driver/i.test(renderer);
}

/** A short name for a renderer string: `llvmpipe`, `SwiftShader`, or the device in an ANGLE string. */
export function shortRenderer(renderer: string): string {
  const soft = renderer.match(/llvmpipe|softpipe|lavapipe|swiftshader/i)?.[0];
  if (soft) return soft.toLowerCase() === 'swiftshader' ? 'SwiftShader' : soft.toLowerCase();
  // ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA H100 80GB HBM3 (0x00002330)), NVIDIA) -> NVIDIA NVIDIA H100 80GB HBM3
  const device = renderer.match(/Vulkan [\d.]+ \((.+?) \(0x[0-9a-f]+\)\)/i)?.[1];
  return device ?? renderer.replace(/^ANGLE \(|\)$/g, '');
}

/** An ICD that draws on the CPU (lavapipe, SwiftShader, Chromium's mock): not a GPU driver. */
export function isSoftwareIcd(icd: { manifest: string; library: string }): boolean {
  return /lvp|lavapipe|swiftshader|mock/i.test(`${path.basename(icd.manifest)} ${path.basename(icd.library)}`);
}

/**
 * VK_DRIVER_FILES for Chromium: an operator's own list wins; else the vendor ICDs, then
 * SwiftShader's so the instance has VK_EXT_headless_surface (ANGLE still picks the vendor device).
 */
export function vulkanDriverFiles(
  vendorManifests: string[],
  swiftshaderIcd: string | null,
  env: GpuFacts['env'],
): string {
  const own = env.VK_DRIVER_FILES || env.VK_ICD_FILENAMES;
  if (own) return own;
  return [...vendorManifests, ...(swiftshaderIcd ? [swiftshaderIcd] : [])].join(':');
}

/** LD_LIBRARY_PATH for Chromium: ANGLE's dir, libvulkan's and glvnd's dirs, then what was set. */
export function gpuLibraryPath(dirs: (string | null)[], existing: string | undefined): string {
  const all = [...dirs.filter((d): d is string => !!d), ...(existing ? existing.split(':') : [])];
  return [...new Set(all.filter(Boolean))].join(':');
}

/**
 * What to do when a vendor Vulkan driver is installed but ANGLE still ends up on SwiftShader: the
 * driver could not start. Seen on an H200 host (2026-11-27): the NVIDIA ICD gave no vkCreateInstance
 * with libGLdispatch alone on the library path; with the GL vendor-neutral dispatch libraries
 * installed (these Debian/Ubuntu packages) it drew on the GPU.
 */
export const VENDOR_DRIVER_FIX =
  'the vendor Vulkan driver did not start: install the GL dispatch libraries it loads (apt-get install -y libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libgles2 libopengl0), then run render-farm doctor';

/** The decision from the facts: a usable GPU with the environment Chromium needs, or why not and what to do. */
export function decideGpu(f: GpuFacts): GpuProbe {
  // one manifest per driver library: the container toolkit and the distribution may both ship
  // NVIDIA's (seen on an H200 host, 2026-11-27), and the loader would load the driver twice
  const vendor = f.icds.filter((i, k, all) => !isSoftwareIcd(i) && all.findIndex((j) => j.library === i.library) === k);
  const names = (list: GpuFacts['icds']) => list.map((i) => path.basename(i.manifest)).join(', ');
  if (vendor.length === 0) {
    return {
      found: false,
      reason: f.icds.length
        ? `no Vulkan driver for a GPU (only software ones: ${names(f.icds)})`
        : 'no Vulkan driver (no ICD in ' + VULKAN_ICD_DIRS.join(', ') + ')',
      fix: 'on a GPU host install the vendor Vulkan driver (NVIDIA: the container toolkit with graphics capability; AMD/Intel: mesa-vulkan-drivers)',
    };
  }
  if (f.devices.length === 0) {
    return {
      found: false,
      reason: `Vulkan drivers installed (${names(vendor)}) but no GPU device (/dev/nvidia*, /dev/dri/renderD*)`,
      fix: 'pass the GPU into the container (docker --gpus all, or the device plugin in Kubernetes)',
    };
  }
  if (!f.libvulkanDir) {
    return {
      found: false,
      reason: 'libvulkan.so.1 not found (beside Chromium or in a library dir)',
      fix: 'apt-get install -y libvulkan1',
    };
  }
  const nvidia = vendor.some((i) => /nvidia/i.test(`${i.manifest} ${i.library}`));
  if (nvidia && !f.glDispatchDir) {
    return {
      found: false,
      reason: 'libGLdispatch.so.0 not found: the NVIDIA Vulkan driver needs it',
      fix: 'apt-get install -y libglvnd0',
    };
  }
  return {
    found: true,
    driver: `${names(vendor)} (${vendor.map((i) => path.basename(i.library)).join(', ')})`,
    env: {
      VK_DRIVER_FILES: vulkanDriverFiles(
        vendor.map((i) => i.manifest),
        f.swiftshaderIcd,
        f.env,
      ),
      LD_LIBRARY_PATH: gpuLibraryPath([f.chromiumDir, f.libvulkanDir, f.glDispatchDir], f.env.LD_LIBRARY_PATH),
    },
  };
}

/** The directory holding ANGLE's libs for this Chromium: its own (resolved) dir, else a packaged one's. */
function chromiumLibDir(chromiumPath: string): string | null {
  let real = chromiumPath;
  try {
    real = realpathSync(chromiumPath);
  } catch {
    // a missing path: tool-paths reports it
  }
  for (const dir of [path.dirname(real), ...CHROMIUM_LIB_DIRS])
    if (existsSync(path.join(dir, 'libGLESv2.so'))) return dir;
  return null;
}

function listIcds(): GpuFacts['icds'] {
  const icds: GpuFacts['icds'] = [];
  for (const dir of VULKAN_ICD_DIRS) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const f of files) {
      const manifest = path.join(dir, f);
      try {
        const library = String(
          (JSON.parse(readFileSync(manifest, 'utf8')) as { ICD?: { library_path?: unknown } }).ICD?.library_path ?? '',
        );
        icds.push({ manifest, library });
      } catch {
        // an unreadable manifest is no driver
      }
    }
  }
  return icds;
}

function gpuDevices(): string[] {
  const found: string[] = [];
  try {
    found.push(
      ...readdirSync('/dev')
        .filter((d) => /^nvidia\d+$/.test(d))
        .map((d) => `/dev/${d}`),
    );
  } catch {
    // no /dev: no devices
  }
  try {
    found.push(
      ...readdirSync('/dev/dri')
        .filter((d) => d.startsWith('renderD'))
        .map((d) => `/dev/dri/${d}`),
    );
  } catch {
    // no DRM devices
  }
  return found;
}

const dirWith = (dirs: (string | null)[], file: string): string | null =>
  dirs.find((d): d is string => !!d && existsSync(path.join(d, file))) ?? null;

/** Gathers the facts for `decideGpu` (no process is started; a few directory listings). */
export function gpuFacts(chromiumPath: string, env: GpuFacts['env']): GpuFacts {
  const chromiumDir = chromiumLibDir(chromiumPath);
  const libDirs = [...(env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean), ...GPU_LIB_DIRS];
  return {
    icds: listIcds(),
    devices: gpuDevices(),
    chromiumDir,
    libvulkanDir: dirWith([chromiumDir, ...libDirs], 'libvulkan.so.1'),
    glDispatchDir: dirWith(libDirs, 'libGLdispatch.so.0'),
    swiftshaderIcd:
      chromiumDir && existsSync(path.join(chromiumDir, 'vk_swiftshader_icd.json'))
        ? path.join(chromiumDir, 'vk_swiftshader_icd.json')
        : null,
    env,
  };
}

/** Probes this machine for a GPU Chromium can draw WebGL on (ANGLE over Vulkan). */
export function findGpu(chromiumPath: string, env: GpuFacts['env']): GpuProbe {
  return decideGpu(gpuFacts(chromiumPath, env));
}
