/**
 * Publishing a finished pregenerated render: bytes into the artifact store (atomic), then the
 * row. Until the row exists the endpoint cannot find the bytes, so nothing half-written is ever
 * served; a crash between the two leaves an unreferenced file that the rerun overwrites.
 */
import type { Db } from '../db/database.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { pregenArtifactKey } from '../storage/artifact-key.js';
import { CONTENT_TYPE_OF, saveEntry } from './cache-repository.js';
import { visibleModels, type PlanItem } from './plan.js';

export interface PublishDeps {
  db: Db;
  store: ArtifactStore;
  rendererVersion: string;
}

/** Stores `file` as the item's render and writes its row; returns the bytes stored. */
export async function publishFile(
  deps: PublishDeps,
  item: PlanItem,
  file: string,
  stats: { renderMs: number | null; framesPerSecond: number | null },
): Promise<number> {
  const format = item.options.format;
  const artifactKey = pregenArtifactKey(item.key, format);
  const stored = await deps.store.putFile(artifactKey, file, CONTENT_TYPE_OF[format]);
  const material = item.material!;
  // the models the pixels were drawn with, so `pregen ls --stale` finds the entry once one changes
  const models = visibleModels(material, item.models);
  await saveEntry(deps.db, {
    key: item.key,
    format,
    width: item.options.width,
    height: item.options.height,
    profile: item.options.profile,
    options: { ...material.options },
    parts: item.partIds,
    visible: {
      parts: material.visible,
      traces: material.traces,
      versions: material.versions,
      rules: material.rules,
      ...(Object.keys(models).length ? { models } : {}),
    },
    artifactKey,
    contentType: CONTENT_TYPE_OF[format],
    bytes: stored.size,
    rendererVersion: deps.rendererVersion,
    renderMs: stats.renderMs === null ? null : Math.round(stats.renderMs),
    framesPerSecond: stats.framesPerSecond,
    source: item.source,
  });
  return stored.size;
}
