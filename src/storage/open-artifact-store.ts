/** The artifact store factory: the backend STORAGE_URL names (storage-location.ts). */
import { describeSetting, type Config } from '../config.js';
import type { ArtifactStore } from './artifact-store.js';
import { storageLocation } from './storage-location.js';

/**
 * Opens the backend that `cfg.storageUrl` names (the filesystem under `<dataDir>/artifacts`
 * when unset). Backends are loaded lazily so the fs path never loads the S3 code.
 */
export async function openArtifactStore(cfg: Config): Promise<ArtifactStore> {
  const loc = storageLocation(cfg);
  if (loc.kind === 'fs') {
    const { FsArtifactStore } = await import('./fs-store.js');
    const setting = cfg.storageUrl
      ? describeSetting(cfg, 'storageUrl', 'artifact store')
      : describeSetting(cfg, 'dataDir', 'artifacts in the data dir');
    return FsArtifactStore.open(loc.root, setting);
  }
  const { S3ArtifactStore } = await import('./s3-store.js');
  return S3ArtifactStore.fromConfig(cfg, loc.bucket, loc.prefix);
}
