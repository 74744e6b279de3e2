/** `render-farm keys create|list|revoke`: long-lived API keys per customer. */
import type { Command } from 'commander';
import { ENVIRONMENTS, type Environment } from '../auth/scopes.js';
import { UsageError } from './errors.js';
import { configFor, printJson, subcommand, withDb, withExistingDb } from './common.js';

export default function register(program: Command): void {
  const keys = subcommand(program, 'keys', {
    description: 'Long-lived API keys (stored hashed; shown once at creation).',
    examples: [
      'render-farm keys create --customer acme',
      'render-farm keys create --customer ops --admin',
      'render-farm keys list',
    ],
  });

  keys
    .command('create')
    .description('Create an API key for a customer (the customer is created when new).')
    .requiredOption('--customer <name>', 'customer name')
    .option('--env <environment>', 'prod or staging', 'prod')
    .option('--admin', "an admin key: also carries models:write (PUT/DELETE /models); keep it on the operator's side")
    .option(
      '--console',
      "the key may also sign in to the web console (/console) and see its customer's renders; admin keys may anyway",
    )
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExamples:\n  $ render-farm keys create --customer acme\n  $ render-farm keys create --customer acme --env staging --json\n  $ render-farm keys create --customer acme --console\n  $ render-farm keys create --customer ops --admin',
    )
    .action(
      async (
        opts: { customer: string; env: string; admin?: boolean; console?: boolean; json?: boolean },
        cmd: Command,
      ) => {
        if (!(ENVIRONMENTS as readonly string[]).includes(opts.env))
          throw new UsageError(`--env must be prod or staging, got "${opts.env}"`);
        if (!opts.customer.trim() || opts.customer.length > 100)
          throw new UsageError('--customer must be 1 to 100 characters');
        const { createApiKey } = await import('../auth/api-keys.js');
        const { key, record } = await withDb(configFor(cmd), (db) =>
          createApiKey(db.db, opts.customer.trim(), opts.env as Environment, {
            admin: opts.admin === true,
            console: opts.console === true,
          }),
        );
        if (opts.json) printJson({ key, ...record });
        else
          process.stdout.write(
            `created ${record.admin ? 'admin ' : record.console ? 'console ' : ''}key ${record.id} for ${record.customerName} (${record.environment})\n${key}\nStore it now: it cannot be shown again.\n`,
          );
      },
    );

  subcommand(keys, 'list', {
    description: 'List API keys (prefixes only).',
    json: true,
    examples: ['render-farm keys list'],
  }).action(async (opts: { json?: boolean }, cmd: Command) => {
    const { listApiKeys } = await import('../auth/api-keys.js');
    const list = await withExistingDb(configFor(cmd), (db) => listApiKeys(db.db));
    if (opts.json) return printJson(list);
    if (!list.length)
      return void process.stdout.write('no API keys: create one with "render-farm keys create --customer NAME"\n');
    for (const k of list) {
      const state = k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active';
      process.stdout.write(
        `${k.id}  ${k.prefix}…  ${k.customerName}  ${k.environment}${k.admin ? '  admin' : k.console ? '  console' : ''}  ${state}\n`,
      );
    }
  });

  subcommand(keys, 'revoke <id>', {
    description: 'Revoke a key by id (or by a unique prefix); requests with it then get 401.',
    examples: ['render-farm keys revoke 1b4e28ba-2fa1-11d2-883f-0016d3cca427'],
  }).action(async (id: string, _opts, cmd: Command) => {
    const { revokeApiKey } = await import('../auth/api-keys.js');
    const rec = await withDb(configFor(cmd), (db) => revokeApiKey(db.db, id));
    if (!rec) throw new UsageError(`no API key matches "${id}" (see "render-farm keys list")`);
    process.stdout.write(`revoked ${rec.id} (${rec.prefix}…, ${rec.customerName})\n`);
  });
}
