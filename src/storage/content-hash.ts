/** The one sha256 of the code base's content addresses: a stored model's name (`models/<sha256>.glb`), an S3 payload hash. */
import { createHash } from 'node:crypto';

/** Lower-case hex sha256 of `data`. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
