/**
 * Trial models (`render-farm render --model <partId>=<file.glb>`): a part of one render drawn as
 * a file, prepared as `models add` would store it, but not stored. Reading the flags, preparing
 * each file for its part, and pointing the build's part at the prepared bytes (by sha256).
 */
import { UserError } from '../errors.js';
import type { StageBuild } from '../model/stage-contract.js';
import { readModelFile, type ModelInput } from './model-input.js';
import { prepareModelIsolated } from './prepare-isolated.js';
import type { PrepareOptions } from './prepare-model.js';

/** A `--model` value that is malformed, repeated, or names a part not in the build (exit 2). */
export class TrialModelError extends UserError {
  constructor(message: string) {
    // the code a usage error has: these were --model usage errors of `render` before they moved here
    super('usage', message);
    this.name = 'TrialModelError';
  }
}

/** `<partId>=<file.glb>` values -> part ID -> the file's bytes; a missing file or an external URI fails here, before anything starts. */
export async function readTrialModels(specs: readonly string[], maxBytes: number): Promise<Map<string, ModelInput>> {
  const out = new Map<string, ModelInput>();
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const id = eq > 0 ? spec.slice(0, eq) : '';
    const file = eq > 0 ? spec.slice(eq + 1) : '';
    if (!id || !file) throw new TrialModelError(`--model ${spec}: expected <partId>=<file.glb>`);
    if (out.has(id)) throw new TrialModelError(`--model ${spec}: part ${id} is given twice`);
    out.set(id, await readModelFile(file, maxBytes));
  }
  return out;
}

const partIdsOf = (build: StageBuild) =>
  [...new Set(Object.values(build.parts).flatMap((list) => (list ?? []).map((p) => p.id)))].sort();

/** Each file prepared for its part of the build (refused as `models add` refuses it): part ID -> prepared GLB. */
export async function prepareTrialModels(
  build: StageBuild,
  inputs: Map<string, ModelInput>,
  options: PrepareOptions,
): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const parts = Object.values(build.parts).flatMap((list) => list ?? []);
  for (const [id, input] of inputs) {
    const part = parts.find((p) => p.id === id);
    if (!part)
      throw new TrialModelError(
        `--model ${id}=...: part ${id} is not in this build (its parts: ${partIdsOf(build).join(', ')})`,
      );
    out.set(id, (await prepareModelIsolated(input, part, options)).glb);
  }
  return out;
}

/** The build with each trial part drawn as its prepared model (`shas[i]` for `ids[i]`). */
export function withTrialModels(build: StageBuild, ids: readonly string[], shas: readonly string[]): StageBuild {
  if (ids.length === 0) return build;
  const inBuild = new Set(partIdsOf(build));
  const models = { ...(build.models ?? {}) };
  ids.forEach((id, i) => {
    if (!inBuild.has(id))
      throw new TrialModelError(
        `--model ${id}=...: part ${id} is not in this build (its parts: ${partIdsOf(build).join(', ')})`,
      );
    models[id] = shas[i]!;
  });
  return { ...build, models };
}
