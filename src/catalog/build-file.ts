/**
 * A build file (`render-farm render --build FILE`): a POST /render-build body, checked by the
 * API's own schema (model/render-request.ts) and parts rules (model/parts-map.ts), plus the
 * optional `state` a saved build carries. The older form, `{"parts": {...}, "state": {...}}`,
 * is such a body without options, so it reads as before.
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { interactiveStateSchema, type InteractiveState } from '../model/interactive-state.js';
import type { PartIdMap } from '../model/part.js';
import { checkPartsMap } from '../model/parts-map.js';
import { renderRequestSchema } from '../model/render-request.js';
import type { RenderOptions } from '../model/render-options.js';

/** A build file that cannot be read or that the rules refuse; the message names the file. */
export class BuildFileError extends UserError {
  constructor(
    public readonly file: string,
    problem: string,
  ) {
    super('invalid_build_file', `build file ${file}: ${problem}`);
    this.name = 'BuildFileError';
  }
}

/** What a build file asks for: the parts, the saved state (null without one), the render options it sets. */
export interface BuildFile {
  parts: PartIdMap;
  state: InteractiveState | null;
  options: RenderOptions;
}

type Issue = { path: PropertyKey[]; message: string };
const listed = (issues: readonly Issue[], prefix: string[] = []) =>
  issues.map((i) => `${[...prefix, ...i.path.map(String)].join('.') || '(root)'}: ${i.message}`).join('; ');

/** Reads and checks `file`; throws BuildFileError naming it. */
export async function readBuildFile(file: string): Promise<BuildFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new BuildFileError(file, (err as Error).message);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new BuildFileError(file, 'expected a JSON object {"parts": {"CATEGORY": ["id"]}, ...}');
  // `state` is the one field a /render-build body lacks: a saved build's fans, radiators and RGB
  const { state: rawState, ...body } = json as Record<string, unknown>;
  const request = renderRequestSchema.safeParse(body);
  if (!request.success) throw new BuildFileError(file, listed(request.error.issues));
  const state = interactiveStateSchema.nullable().optional().safeParse(rawState);
  if (!state.success) throw new BuildFileError(file, listed(state.error.issues, ['state']));
  const { parts, ...options } = request.data;
  const check = checkPartsMap(parts);
  if (!check.ok) throw new BuildFileError(file, check.refusal.message);
  return { parts: check.parts, state: state.data ?? null, options };
}
