/** The `retention` queue task: one retention pass (src/jobs/retention.ts), queued by the runner's crontab. */
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Logger } from '../../log.js';
import { retentionSwept } from '../../metrics.js';
import type { ArtifactStore } from '../../storage/artifact-store.js';
import type { Handler } from '../queue/task-map.js';
import { runRetention } from '../retention.js';

export function retentionTask(ctx: { db: Db; store: ArtifactStore; cfg: Config; log: Logger }): Handler<'retention'> {
  return async () => {
    const r = await runRetention(ctx.db, ctx.store, ctx.cfg);
    const rows = r.rows.jobs + r.rows.renders + r.rows.chunks + r.rows.events + r.rows.deliveries + r.rows.tombstones;
    retentionSwept.inc({ what: 'renders' }, r.artifacts.renders.length);
    retentionSwept.inc({ what: 'files' }, r.artifacts.deletedFiles);
    retentionSwept.inc({ what: 'rows' }, rows);
    // a quiet pass is logged at debug: it runs every few minutes
    const level = r.artifacts.renders.length || rows ? 'info' : 'debug';
    ctx.log[level](
      {
        renders: r.artifacts.renders.length,
        files: r.artifacts.deletedFiles,
        freedBytes: r.artifacts.freedBytes,
        storeBytes: r.artifacts.bytesAfter,
        rows: r.rows,
        ms: r.ms,
      },
      'retention swept',
    );
  };
}
