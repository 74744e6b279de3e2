/** Doctor: Chromium, ffmpeg and ffprobe: where, which version, and for ffmpeg the parts we use. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Config } from '../config.js';
import { findChromium, findFfmpeg, findFfprobe, MissingToolError, type ToolLocation } from '../render/tool-paths.js';
import type { CheckOutcome } from './check.js';

const run = promisify(execFile);

function output(file: string, args: string[]) {
  return run(file, args, { timeout: 15_000, maxBuffer: 4 * 1024 * 1024 });
}

async function firstLine(file: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await output(file, args);
  return (stdout || stderr).split('\n')[0]!.trim();
}

/** The tool located the way workers locate it, or the failed check saying how to install it. */
async function locate(
  cfg: Config,
  find: (cfg: Config, searchPath?: string) => Promise<ToolLocation>,
): Promise<ToolLocation | CheckOutcome> {
  try {
    return await find(cfg, cfg.searchPath);
  } catch (err) {
    if (err instanceof MissingToolError)
      return { status: 'fail', detail: err.message.split(':')[0]!, fix: fixOf(err.message) };
    throw err;
  }
}

const where = (t: ToolLocation) =>
  `${t.path} (${t.source === 'config' ? 'configured' : t.source === 'package' ? 'npm package' : 'system'})`;

/** Chromium: located the way workers locate it; the version from `--version`. */
export async function checkChromium(cfg: Config): Promise<CheckOutcome & { location?: ToolLocation }> {
  const location = await locate(cfg, findChromium);
  if ('status' in location) return location;
  // "Chromium 131.0.6778.85 built on Debian ..." -> "Chromium 131.0.6778.85"
  const version = (await firstLine(location.path, ['--version']).catch(() => 'version unknown')).replace(
    /\s+built on .*$/,
    '',
  );
  return {
    status: 'ok',
    detail: `${where(location)}: ${version}`,
    data: { path: location.path, source: location.source, version },
    location,
  };
}

/** ffmpeg: version, the libx264 encoder (x264 fallback path) and the concat demuxer. */
export async function checkFfmpeg(cfg: Config): Promise<CheckOutcome> {
  const location = await locate(cfg, findFfmpeg);
  if ('status' in location) return location;
  const version = versionOf(await firstLine(location.path, ['-hide_banner', '-version']));
  const [encoders, demuxers] = await Promise.all([
    output(location.path, ['-hide_banner', '-encoders']).then((r) => r.stdout),
    output(location.path, ['-hide_banner', '-demuxers']).then((r) => r.stdout),
  ]);
  const x264 = /\blibx264\b/.test(encoders);
  const concat = /^\s*D\S*\s+concat\b/m.test(demuxers);
  const missing = [...(x264 ? [] : ['libx264']), ...(concat ? [] : ['concat'])];
  const data = { path: location.path, source: location.source, version, libx264: x264, concat };
  if (missing.length) {
    return {
      status: 'fail',
      detail: `${where(location)} ${version}: no ${missing.join(', ')}`,
      fix: 'use an ffmpeg built with libx264 (Debian/Ubuntu: apt-get install -y ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH',
      data,
    };
  }
  return { status: 'ok', detail: `${where(location)} ${version}: libx264, concat`, data };
}

export async function checkFfprobe(cfg: Config): Promise<CheckOutcome> {
  const location = await locate(cfg, findFfprobe);
  if ('status' in location) return location;
  const version = versionOf(await firstLine(location.path, ['-hide_banner', '-version']));
  return {
    status: 'ok',
    detail: `${where(location)} ${version}`,
    data: { path: location.path, source: location.source, version },
  };
}

/** "ffmpeg version 5.1.6-0+deb12u1 Copyright ..." -> "5.1.6-0+deb12u1" */
function versionOf(line: string): string {
  return /version\s+(\S+)/.exec(line)?.[1] ?? line;
}

/** MissingToolError messages read "X not found...: fix": the part after the first colon-space is the fix. */
function fixOf(message: string): string {
  const i = message.indexOf(': ');
  return i >= 0 ? message.slice(i + 2) : message;
}
