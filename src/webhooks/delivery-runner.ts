/**
 * A graphile-worker runner that knows only the `webhook` task, started by every serve process.
 * Render workers do not list that task, so deliveries never take a render slot and a render
 * worker's queue never waits behind a slow receiver; graphile-worker hands each delivery to
 * exactly one runner across all serve processes.
 */
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { startRunner } from '../jobs/queue/runner.js';
import type { Logger } from '../log.js';
import type { ArtifactStore } from '../storage/artifact-store.js';
import { webhookTask } from './delivery-task.js';
import { targetPolicy } from './target-policy.js';

export interface WebhookDeliveries {
  stop(): Promise<void>;
}

export async function startWebhookDeliveries(
  cfg: Config,
  db: Db,
  store: ArtifactStore,
  log: Logger,
  baseUrl: string,
): Promise<WebhookDeliveries> {
  const runner = await startRunner({
    pool: db.pool,
    log: log.child({ component: 'webhooks' }),
    concurrency: cfg.webhookConcurrency,
    pollInterval: 2_000,
    // failed attempts are logged by the task (with the receiver's answer), not as stack traces
    skipLog: (message) => message.startsWith('Failed task'),
    handlers: {
      webhook: webhookTask({
        db,
        store,
        log: log.child({ component: 'webhooks' }),
        policy: targetPolicy(cfg),
        timeoutMs: cfg.webhookTimeoutSeconds * 1000,
        baseUrl,
      }),
    },
  });
  return { stop: () => runner.stop() };
}
