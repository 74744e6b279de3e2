/**
 * What every task that renders pixels for a render row does first: parse the stored request,
 * resolve its parts from the catalog and check the cache key against this worker's data and
 * renderer (key-check.ts). Shared by the whole-render task and the chunk task, so a chunk can
 * never store pixels that its render's key does not name.
 */
import { UnknownPartsError } from '../../catalog/resolve-build.js';
import { resolveBuild, type ResolvedBuild } from '../../catalog/resolve-build.js';
import type { Db } from '../../db/database.js';
import type { StageBuild } from '../../model/stage-contract.js';
import { normalisedRequestSchema, type NormalisedRequest } from '../../model/render-request.js';
import { rendererVersion } from '../../render/renderer-version.js';
import { PermanentRenderError } from '../errors.js';
import { checkCacheKey } from '../key-check.js';
import type { RenderRow } from '../render-row.js';

/** The row's normalised request, parsed by the schema that wrote it; bad data fails for good. */
export function parseStoredRequest(raw: unknown): NormalisedRequest {
  const parsed = normalisedRequestSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  const what =
    issue?.path[0] === 'state' ? "the build's saved state is invalid" : 'the stored render request is invalid';
  throw new PermanentRenderError(`${what}: ${where}${issue?.message ?? 'unreadable'}`);
}

export interface RenderInput {
  request: NormalisedRequest;
  build: StageBuild;
}

/**
 * The request and build to render for `row`. `record` wraps database reads that must survive an
 * outage (the task's untilReachable). The parts' data, versions and models come from one query,
 * so the pixels rendered from this data are the key's pixels even if the catalog changes meanwhile.
 */
export async function loadRenderInput(
  db: Db,
  row: RenderRow,
  record: <T>(op: () => Promise<T>) => Promise<T>,
): Promise<RenderInput> {
  const request = parseStoredRequest(row.request);
  let resolved: ResolvedBuild;
  try {
    resolved = await record(() => resolveBuild(db, request.parts, request.state));
  } catch (err) {
    if (err instanceof UnknownPartsError)
      throw new PermanentRenderError(`parts no longer in the catalog: ${err.ids.join(', ')}`);
    throw err;
  }
  checkCacheKey(row, request, resolved.versions, await rendererVersion(), resolved.build.models);
  return { request, build: resolved.build };
}
