/** `render-farm webhooks add|list|remove|deliveries|redeliver`: customers' job-event webhooks. */
import type { Command } from 'commander';
import { ENV_NAMES } from '../config.js';
import { UsageError } from './errors.js';
import { choiceFlag, configFor, intFlag, printJson, printList, subcommand, withDb, withExistingDb } from './common.js';
import { table } from './table.js';
import { isUuid } from '../model/uuid.js';

const STATUSES = ['pending', 'delivered', 'failed'] as const;

export default function register(program: Command): void {
  const webhooks = subcommand(program, 'webhooks', {
    description: "Webhooks: the farm POSTs the job object, signed, when a customer's render completes or fails.",
    examples: ['render-farm webhooks list --customer acme', 'render-farm webhooks deliveries --status failed'],
  });

  webhooks
    .command('add')
    .description('Register an https URL for a customer (created when new); prints the signing secret once.')
    .requiredOption('--customer <name>', 'customer name')
    .requiredOption(
      '--url <url>',
      `https URL; private and loopback targets are refused unless ${ENV_NAMES.webhookAllowPrivate} allows them`,
    )
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      `
Each POST carries Render-Farm-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>,
Render-Farm-Event (job.completed or job.error) and Render-Farm-Delivery (the delivery id). See docs/api.md for verification code.

Examples:
  $ render-farm webhooks add --customer acme --url https://shop.example/hooks/render
  $ render-farm webhooks add --customer acme --url https://shop.example/hooks/render --json`,
    )
    .action(async (opts: { customer: string; url: string; json?: boolean }, cmd: Command) => {
      if (!opts.customer.trim() || opts.customer.length > 100)
        throw new UsageError('--customer must be 1 to 100 characters');
      const cfg = configFor(cmd);
      const { checkWebhookTarget, targetPolicy } = await import('../webhooks/target-policy.js');
      const { createWebhook } = await import('../webhooks/webhooks-repository.js');
      const { ensureCustomer } = await import('../auth/customers.js');
      // a refused URL or a full customer is a user error: reportError prints it, exit 2
      const { url } = await checkWebhookTarget(opts.url, targetPolicy(cfg));
      const created = await withDb(cfg, async (db) => {
        const customer = await ensureCustomer(db.db, opts.customer.trim());
        return createWebhook(db, customer.id, url.href);
      });
      if (opts.json)
        return printJson({
          id: created.webhook.id,
          customer: created.webhook.customer,
          url: created.webhook.url,
          secret: created.secret,
        });
      process.stdout.write(
        `webhook ${created.webhook.id} for ${created.webhook.customer}: ${created.webhook.url}\n` +
          `signing secret: ${created.secret}\nStore it now: it cannot be shown again.\n`,
      );
    });

  subcommand(webhooks, 'list', {
    description: 'Active webhooks (secrets are never shown again).',
    options: [['--customer <name>', 'only this customer']],
    json: true,
    examples: ['render-farm webhooks list --customer acme'],
  }).action(async (opts: { customer?: string; json?: boolean }, cmd: Command) => {
    const { listWebhooks } = await import('../webhooks/webhooks-repository.js');
    const list = (await withExistingDb(configFor(cmd), (db) => listWebhooks(db))).filter(
      (w) => !opts.customer || w.customer === opts.customer,
    );
    printList(
      list,
      opts.json,
      'no webhooks: add one with "render-farm webhooks add --customer NAME --url https://…"\n',
      ['ID', 'CUSTOMER', 'CREATED', 'URL'],
      (w) => [w.id, w.customer, w.createdAt.toISOString(), w.url],
    );
  });

  subcommand(webhooks, 'remove <id>', {
    description: 'Disable a webhook; pending deliveries to it are dropped, the log stays.',
    examples: ['render-farm webhooks remove 1b4e28ba-2fa1-11d2-883f-0016d3cca427'],
  }).action(async (id: string, _opts, cmd: Command) => {
    const { disableWebhook } = await import('../webhooks/webhooks-repository.js');
    const done = isUuid(id) ? await withDb(configFor(cmd), (db) => disableWebhook(db, id)) : null;
    if (!done) throw new UsageError(`no active webhook ${id} (see "render-farm webhooks list")`);
    process.stdout.write(`removed webhook ${done.id} (${done.customer}, ${done.url})\n`);
  });

  subcommand(webhooks, 'deliveries', {
    description: "The delivery log, newest first: status, attempts, the receiver's answer or the error.",
    options: [
      ['--customer <name>', 'only this customer'],
      ['--webhook <id>', 'only this webhook'],
      ['--job <id>', 'only this job'],
      ['--status <status>', `only ${STATUSES.join(', ')}`],
      ['--limit <n>', 'how many (default 50)'],
    ],
    json: true,
    examples: [
      'render-farm webhooks deliveries --status failed',
      'render-farm webhooks deliveries --job 3fa85f64-5717-4562-b3fc-2c963f66afa6 --json',
    ],
  }).action(
    async (
      opts: { customer?: string; webhook?: string; job?: string; status?: string; limit?: string; json?: boolean },
      cmd: Command,
    ) => {
      const status = choiceFlag('status', opts.status, STATUSES);
      if (opts.webhook !== undefined && !isUuid(opts.webhook)) throw new UsageError('--webhook must be a UUID');
      const limit = intFlag('limit', opts.limit, 1, 10_000);
      const { listDeliveries } = await import('../webhooks/webhooks-repository.js');
      const { resolveJobId } = await import('../jobs/job-id-prefix.js');
      const list = await withExistingDb(configFor(cmd), async (db) => {
        // a job by its full ID or a unique prefix (top shows 8 digits)
        const jobId = opts.job === undefined ? undefined : await resolveJobId(db, opts.job);
        if (jobId === null)
          throw new UsageError(`no job ${opts.job} (--job takes a job ID or a unique prefix of 6+ hex digits)`);
        return listDeliveries(db, { customer: opts.customer, webhookId: opts.webhook, jobId, status, limit });
      });
      if (opts.json) return printJson(list);
      if (!list.length) return void process.stdout.write('no deliveries\n');
      const rows = list.map((d) => [
        d.id,
        d.createdAt.toISOString(),
        d.customer,
        d.event,
        d.status,
        String(d.attempts),
        d.responseStatus === null ? '-' : String(d.responseStatus),
        d.jobId,
        d.lastError ?? '',
      ]);
      process.stdout.write(
        table(['DELIVERY', 'CREATED', 'CUSTOMER', 'EVENT', 'STATUS', 'ATTEMPTS', 'HTTP', 'JOB', 'LAST ERROR'], rows),
      );
    },
  );

  subcommand(webhooks, 'redeliver <deliveryId>', {
    description: 'Send a delivery again (a new log entry), e.g. after the receiver was fixed.',
    examples: ['render-farm webhooks redeliver 6f1c…'],
  }).action(async (id: string, _opts, cmd: Command) => {
    if (!isUuid(id)) throw new UsageError('the delivery id must be a UUID (see "render-farm webhooks deliveries")');
    const { redeliver } = await import('../webhooks/webhooks-repository.js');
    const { installQueue } = await import('../jobs/queue/runner.js');
    const fresh = await withDb(configFor(cmd), async (db) => {
      await installQueue(db.pool);
      return redeliver(db, id);
    });
    if (!fresh) throw new UsageError(`no delivery ${id} to an active webhook (see "render-farm webhooks deliveries")`);
    process.stdout.write(`queued delivery ${fresh}\n`);
  });
}
