/**
 * Finds the external programs rendering needs: Chromium, ffmpeg and ffprobe.
 * Order: the configured path, then well-known system locations and PATH, then an optional
 * npm package that ships a binary (`@sparticuz/chromium`, `@ffmpeg-installer/ffmpeg`,
 * `@ffprobe-installer/ffprobe`, optional dependencies, so `npm install` alone can render). A
 * system install is preferred: Debian's Chromium can use Mesa over EGL, about 3x faster than the
 * packaged Chromium's SwiftShader. `systemTools: false` skips the system (tests of the fallback).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { UnavailableError } from '../errors.js';

/** A required program is missing; the message says what is missing and how to provide it. */
export class MissingToolError extends UnavailableError {
  constructor(message: string) {
    super('tool_missing', message);
    this.name = 'MissingToolError';
  }
}

/** Where a program was found, and whether it came from an npm package (SwiftShader-only for Chromium). */
export interface ToolLocation {
  path: string;
  source: 'config' | 'system' | 'package';
}

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];
const CHROMIUM_FIXED = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First executable named `names` on PATH (the PATH string is passed in so config stays the only env reader). */
export function whichOnPath(names: string[], searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Imports an optional package by name; undefined when it is not installed. */
async function optionalImport(name: string): Promise<Record<string, unknown> | undefined> {
  try {
    // a variable specifier keeps bundlers and tsc from requiring the package to exist
    const spec = name;
    return (await import(spec)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function configured(file: string | undefined, what: string, envName: string): ToolLocation | undefined {
  if (!file) return undefined;
  if (!isExecutable(file)) {
    throw new MissingToolError(
      `${what} not found at ${file} (from ${envName}): fix the path or unset ${envName} to use a system ${what}`,
    );
  }
  return { path: file, source: 'config' };
}

type ToolConfig = Partial<Pick<Config, 'chromiumPath' | 'ffmpegPath' | 'ffprobePath' | 'systemTools'>>;

/** Locates Chromium; throws MissingToolError with the fix when there is none. */
export async function findChromium(cfg: ToolConfig, searchPath?: string): Promise<ToolLocation> {
  const fromConfig = configured(cfg.chromiumPath, 'Chromium', 'CHROMIUM_PATH');
  if (fromConfig) return fromConfig;
  const system =
    cfg.systemTools === false
      ? undefined
      : (CHROMIUM_FIXED.find(isExecutable) ?? whichOnPath(CHROMIUM_NAMES, searchPath));
  if (system) return { path: system, source: 'system' };
  const sparticuz = await optionalImport('@sparticuz/chromium');
  const chromium = (sparticuz?.default ?? sparticuz) as { executablePath?: () => Promise<string> } | undefined;
  if (chromium?.executablePath) {
    // unpacks a Linux x64/arm64 build to the temp dir once; elsewhere it throws
    const file = await chromium.executablePath().catch(() => undefined);
    if (file && isExecutable(file)) return { path: file, source: 'package' };
  }
  throw new MissingToolError(
    'Chromium not found: install it (apt-get install -y chromium libgl1-mesa-dri libegl1), set CHROMIUM_PATH, or npm install the optional @sparticuz/chromium (Linux, about 3x slower)',
  );
}

async function findFfTool(
  tool: 'ffmpeg' | 'ffprobe',
  file: string | undefined,
  searchPath: string | undefined,
  systemTools: boolean | undefined,
): Promise<ToolLocation> {
  const envName = tool === 'ffmpeg' ? 'FFMPEG_PATH' : 'FFPROBE_PATH';
  const fromConfig = configured(file, tool, envName);
  if (fromConfig) return fromConfig;
  const system =
    systemTools === false
      ? undefined
      : ([`/usr/bin/${tool}`, `/usr/local/bin/${tool}`, `/opt/homebrew/bin/${tool}`].find(isExecutable) ??
        whichOnPath([tool], searchPath));
  if (system) return { path: system, source: 'system' };
  const pkg = await optionalImport(`@${tool}-installer/${tool}`);
  const installer = (pkg?.default ?? pkg) as { path?: string } | undefined;
  if (installer?.path) {
    // npm 11 may have skipped the package's "chmod u+x" postinstall (allowScripts): do it here
    if (!isExecutable(installer.path)) await chmod(installer.path, 0o755).catch(() => {});
    if (isExecutable(installer.path)) return { path: installer.path, source: 'package' };
  }
  throw new MissingToolError(
    `${tool} not found: install it (apt-get install -y ffmpeg), set ${envName}, or npm install the optional @${tool}-installer/${tool}`,
  );
}

/** Locates ffmpeg; throws MissingToolError with the fix when there is none. */
export function findFfmpeg(cfg: ToolConfig, searchPath?: string): Promise<ToolLocation> {
  return findFfTool('ffmpeg', cfg.ffmpegPath, searchPath, cfg.systemTools);
}

/** Locates ffprobe; throws MissingToolError with the fix when there is none. */
export function findFfprobe(cfg: ToolConfig, searchPath?: string): Promise<ToolLocation> {
  return findFfTool('ffprobe', cfg.ffprobePath, searchPath, cfg.systemTools);
}
