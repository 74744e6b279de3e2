/**
 * The render options as command-line flags, declared once for `render` and `pregen`: each
 * flag names the API field it sets, and its help text takes values and defaults from
 * src/model. Values are validated by the model's schema (the API's), and a problem is
 * reported under the flag's name.
 */
import type { Command } from 'commander';
import type { z } from 'zod';
import {
  CAMERA_OFFSET_X,
  CAMERA_ZOOM,
  DEFAULT_FORMAT,
  DEFAULT_GRID,
  DEFAULT_PROFILE,
  DEFAULT_SCENE,
  DEFAULT_SPRITE_SIZE,
  DEFAULT_VIDEO_SIZE,
  FORMATS,
  MAX_SIZE,
  MIN_SIZE,
  PROFILES,
  SCENES,
} from '../model/render-defaults.js';
import { renderOptionsSchema, type RenderOptions } from '../model/render-options.js';
import { SPRITE_FRAMES } from '../model/sprite-layout.js';
import { UsageError } from './errors.js';

type GridKey = keyof typeof DEFAULT_GRID;
/** The API field a flag sets: a render option, or one of gridSettings. */
export type RenderOptionKey = keyof RenderOptions | `gridSettings.${GridKey}`;

interface OptionFlag {
  key: RenderOptionKey;
  /** commander's flag spec: `--name <value>` for values, `--name` for switches */
  flag: string;
  help: string;
  /** `--no-name` for switches that may also be turned off */
  negated?: { flag: string; help: string };
  kind: 'string' | 'number' | 'boolean';
}

const NUMBER = 'number' as const;

/** Every render option flag, in help order. */
export const RENDER_OPTION_FLAGS: readonly OptionFlag[] = [
  {
    key: 'format',
    flag: '--format <format>',
    kind: 'string',
    help: `${FORMATS.join(' or ')} (default ${DEFAULT_FORMAT})`,
  },
  {
    key: 'width',
    flag: '--width <px>',
    kind: NUMBER,
    help: `width, ${MIN_SIZE}..${MAX_SIZE} (with --height; video default ${DEFAULT_VIDEO_SIZE.width}, sprite frame ${DEFAULT_SPRITE_SIZE.width})`,
  },
  {
    key: 'height',
    flag: '--height <px>',
    kind: NUMBER,
    help: `height, ${MIN_SIZE}..${MAX_SIZE} (video default ${DEFAULT_VIDEO_SIZE.height}, sprite frame ${DEFAULT_SPRITE_SIZE.height})`,
  },
  {
    key: 'profile',
    flag: '--profile <profile>',
    kind: 'string',
    help: `${PROFILES.join(', ')} (default ${DEFAULT_PROFILE})`,
  },
  {
    key: 'scene',
    flag: '--scene <scene>',
    kind: 'string',
    help: `lighting/background preset: ${SCENES.join(', ')} (default ${DEFAULT_SCENE})`,
  },
  {
    key: 'showBackground',
    flag: '--show-background',
    negated: { flag: '--no-show-background', help: 'plain background' },
    kind: 'boolean',
    help: 'draw the scene background',
  },
  {
    key: 'showGrid',
    flag: '--show-grid',
    negated: { flag: '--no-show-grid', help: 'no floor grid' },
    kind: 'boolean',
    help: 'draw the floor grid (cinematic default)',
  },
  { key: 'winterMode', flag: '--winter', kind: 'boolean', help: 'winter mode' },
  { key: 'springMode', flag: '--spring', kind: 'boolean', help: 'spring mode' },
  {
    key: 'cameraOffsetX',
    flag: '--camera-offset-x <x>',
    kind: NUMBER,
    help: `horizontal camera offset, clamped to ${CAMERA_OFFSET_X.min}..${CAMERA_OFFSET_X.max}`,
  },
  {
    key: 'cameraZoom',
    flag: '--camera-zoom <z>',
    kind: NUMBER,
    help: `camera distance factor, clamped to ${CAMERA_ZOOM.min}..${CAMERA_ZOOM.max}`,
  },
  {
    key: 'gridSettings.cellThickness',
    flag: '--grid-cell-thickness <n>',
    kind: NUMBER,
    help: `grid cell line thickness (${DEFAULT_GRID.cellThickness})`,
  },
  {
    key: 'gridSettings.sectionThickness',
    flag: '--grid-section-thickness <n>',
    kind: NUMBER,
    help: `grid section line thickness (${DEFAULT_GRID.sectionThickness})`,
  },
  {
    key: 'gridSettings.color',
    flag: '--grid-color <css>',
    kind: 'string',
    help: `grid colour, any CSS colour: #6f6f6f, #fff, rgb(), hsl(), a name (${DEFAULT_GRID.color})`,
  },
  {
    key: 'gridSettings.fadeDistance',
    flag: '--grid-fade-distance <n>',
    kind: NUMBER,
    help: `grid fade distance (${DEFAULT_GRID.fadeDistance})`,
  },
  {
    key: 'gridSettings.renderOrder',
    flag: '--grid-render-order <n>',
    kind: NUMBER,
    help: `grid render order (${DEFAULT_GRID.renderOrder})`,
  },
  {
    key: 'frameQuality',
    flag: '--frame-quality <q>',
    kind: 'string',
    help: `sprite frames: standard (${SPRITE_FRAMES.standard}) or high (${SPRITE_FRAMES.high})`,
  },
];

/** commander's attribute for a flag: `--camera-offset-x <x>` -> cameraOffsetX. */
function attributeOf(flag: string): string {
  return flag
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Adds the render option flags to `cmd`, except those in `omit` (pregen takes format, profile and size as lists). */
export function addRenderOptionFlags(cmd: Command, omit: readonly RenderOptionKey[] = []): Command {
  for (const f of RENDER_OPTION_FLAGS) {
    if (omit.includes(f.key)) continue;
    cmd.option(f.flag, f.help);
    if (f.negated) cmd.option(f.negated.flag, f.negated.help);
  }
  return cmd;
}

/** A number flag as zod sees it: NaN for junk so the schema reports it. */
const num = (v: unknown) => (v === undefined ? undefined : String(v).trim() === '' ? Number.NaN : Number(v));

/** Parsed flag values (commander's opts) -> the API's render options object (only what was given). */
export function renderOptionsFromFlags(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of RENDER_OPTION_FLAGS) {
    const raw = values[attributeOf(f.flag)];
    if (raw === undefined) continue;
    const value = f.kind === 'number' ? num(raw) : raw;
    const [head, sub] = f.key.split('.') as [string, string | undefined];
    if (sub) ((out[head] ??= {}) as Record<string, unknown>)[sub] = value;
    else out[head] = value;
  }
  return out;
}

/** The flag that sets an option path (`gridSettings.color` -> `--grid-color`), for messages. */
export function flagOf(path: string): string {
  const f = RENDER_OPTION_FLAGS.find((x) => x.key === path);
  return f ? f.flag.split(' ')[0]! : `--${path.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
}

/** The value typed for a flag, as commander read it (undefined for cross-field issues and switches). */
function typed(values: Record<string, unknown>, path: string): string | undefined {
  const f = RENDER_OPTION_FLAGS.find((x) => x.key === path);
  const raw = f && f.kind !== 'boolean' ? values[attributeOf(f.flag)] : undefined;
  return raw === undefined ? undefined : String(raw);
}

/** One schema issue as a flag problem: the flag, what it takes, and what was typed. */
function flagProblem(issue: z.core.$ZodIssue, values: Record<string, unknown>): string {
  const path = issue.path.map(String).join('.');
  const flag = flagOf(path);
  const got = typed(values, path);
  // an enumerated flag: every choice, and the typo beside them
  if (issue.code === 'invalid_value' && got !== undefined)
    return `${flag} must be one of ${issue.values.join(', ')}, got "${got}"`;
  // zod sees junk in a number flag as NaN: say what was typed instead
  if (issue.code === 'invalid_type' && got !== undefined) return `${flag}: expected a ${issue.expected}, got "${got}"`;
  if (got !== undefined && !issue.message.includes(`"${got}"`)) return `${flag}: ${issue.message}, got "${got}"`;
  return `${flag}: ${issue.message}`;
}

/** Validates the flags with the API's schema (cross-field rules included); a usage error names the flags and echoes their values. */
export function parseRenderOptionFlags(values: Record<string, unknown>): RenderOptions {
  const parsed = renderOptionsSchema.safeParse(renderOptionsFromFlags(values));
  if (parsed.success) return parsed.data;
  throw new UsageError(parsed.error.issues.map((i) => flagProblem(i, values)).join('; '));
}
