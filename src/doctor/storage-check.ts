/** Doctor: the artifact store (filesystem or S3) takes a write, a read back and a delete. */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import { openArtifactStore } from '../storage/open-artifact-store.js';
import { readAll } from '../storage/read-all.js';
import { storageLocation } from '../storage/storage-location.js';
import type { CheckOutcome } from './check.js';

export async function checkStorage(cfg: Config): Promise<CheckOutcome> {
  let loc: ReturnType<typeof storageLocation>;
  try {
    loc = storageLocation(cfg);
  } catch (err) {
    return {
      status: 'fail',
      detail: (err as Error).message,
      fix: 'set STORAGE_URL to s3://bucket[/prefix] or file:///absolute/dir, or unset it to use <data dir>/artifacts',
    };
  }
  const where =
    loc.kind === 'fs' ? `filesystem ${loc.root}` : `S3 bucket ${loc.bucket}${loc.prefix ? `/${loc.prefix}` : ''}`;
  const fix =
    loc.kind === 'fs'
      ? 'make the directory writable, or point STORAGE_URL elsewhere'
      : 'check S3_ENDPOINT, S3_REGION and the credentials (S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY), and that the bucket exists and allows PutObject/GetObject/DeleteObject';
  const key = `doctor/probe-${randomBytes(6).toString('hex')}.txt`;
  const bytes = Buffer.from(`render-farm doctor ${new Date().toISOString()}`);
  const t0 = performance.now();
  try {
    const store = await openArtifactStore(cfg);
    await store.putBuffer(key, bytes, 'text/plain');
    try {
      const back = await readAll(await store.read(key));
      if (!back.equals(bytes)) return { status: 'fail', detail: `${where}: read back different bytes`, fix };
    } finally {
      await store.delete(key);
    }
    if (await store.stat(key)) return { status: 'fail', detail: `${where}: the probe object survived its delete`, fix };
  } catch (err) {
    return { status: 'fail', detail: `${where}: ${(err as Error).message.split('\n')[0]}`, fix };
  }
  return {
    status: 'ok',
    detail: `${where}: write, read, delete round trip ${Math.round(performance.now() - t0)} ms`,
    data: { kind: loc.kind },
  };
}
