/**
 * `models preview`: a part's model alone on the studio floor at the hero angle (frame 0), the
 * way part thumbnails show a part, written as a PNG (or WebP by the file's extension). The model
 * is given as GLB bytes (served from memory, keyed by their sha256) or as the sha256 of a stored
 * one (served by the engine's model source).
 */
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Part } from '../model/part.js';
import { resolveRenderOptions, type RenderOptions } from '../model/render-options.js';
import type { StageBuild } from '../model/stage-contract.js';
import type { RenderEngine } from './engine.js';
import { withOverrides, type ModelSource } from './model-source.js';

export interface ModelPreviewOptions {
  /** PNG, or WebP when the name ends in .webp */
  out: string;
  /** default 768 x 768 */
  width?: number;
  height?: number;
  /** default cinematic */
  profile?: RenderOptions['profile'];
}

export interface ModelPreviewResult {
  path: string;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
}

/** The one-part build that draws `part` as the model `sha256` alone (stage-session.ts lonePart). */
export function previewBuild(part: Part, sha256: string): StageBuild {
  return { parts: { [part.category]: [part] }, state: null, models: { [part.id]: sha256 } };
}

/** Renders `part` drawn as `model` (GLB bytes, or a stored model's sha256) and writes the still. */
export async function renderModelPreview(
  engine: RenderEngine,
  part: Part,
  model: Uint8Array | string,
  o: ModelPreviewOptions,
): Promise<ModelPreviewResult> {
  let sha256: string;
  let models: ModelSource | undefined;
  if (typeof model === 'string') sha256 = model;
  else {
    const given = withOverrides(null, [model]);
    sha256 = given.shas[0]!;
    models = given.source;
  }
  const options = resolveRenderOptions({
    width: o.width ?? 768,
    height: o.height ?? 768,
    profile: o.profile ?? 'cinematic',
    format: 'sprite',
  });
  const [png] = await engine.stills({
    build: previewBuild(part, sha256),
    options,
    indices: [0],
    ...(models ? { models } : {}),
  });
  const out = o.out.toLowerCase().endsWith('.webp') ? await sharp(png!).webp({ quality: 92 }).toBuffer() : png!;
  await writeFile(o.out, out);
  return { path: o.out, sha256, bytes: out.length, width: options.width, height: options.height };
}
