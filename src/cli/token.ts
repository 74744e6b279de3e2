/**
 * `render-farm token`: mint a session token locally with the signing secret, or through a
 * running API with an API key (--api-url + --api-key). Never loads the renderer.
 */
import type { Command } from 'commander';
import {
  ENVIRONMENTS,
  TOKEN_SCOPES,
  isAdminScope,
  isTokenScope,
  DEFAULT_TOKEN_SCOPES,
  type Environment,
  type Scope,
} from '../auth/scopes.js';
import { normaliseOrigin } from '../auth/origin.js';
import { ExitError, UsageError } from './errors.js';
import { configFor, intFlag, printJson, withDb } from './common.js';

interface TokenOpts {
  customer?: string;
  scopes?: string;
  ttl?: string;
  origin?: string;
  env: string;
  json?: boolean;
  apiUrl?: string;
  apiKey?: string;
}

function parseScopes(value: string | undefined): Scope[] {
  if (value === undefined) return [...DEFAULT_TOKEN_SCOPES];
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const admin = list.filter((s) => isAdminScope(s));
  if (admin.length)
    throw new UsageError(
      `${admin.join(', ')} is for admin API keys only (render-farm keys create --admin): a session token cannot carry it`,
    );
  const bad = list.filter((s) => !isTokenScope(s));
  if (bad.length || !list.length)
    throw new UsageError(`--scopes takes a comma list of ${TOKEN_SCOPES.join(', ')}; got "${value}"`);
  return [...new Set(list as Scope[])];
}

function parseOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const origin = normaliseOrigin(value);
  if (origin === null)
    throw new UsageError(`--origin must be an http(s) origin like https://shop.example, got "${value}"`);
  return origin;
}

export default function register(program: Command): void {
  program
    .command('token')
    .description('Mint a short-lived session token (JWT) for a customer.')
    .option('--customer <name>', 'customer name (local minting; created when new)')
    .option(
      '--scopes <list>',
      `comma list of ${TOKEN_SCOPES.join(', ')} (default ${DEFAULT_TOKEN_SCOPES.join(',')}; add data:read for parts and builds)`,
      undefined,
    )
    .option('--ttl <seconds>', 'lifetime, 30..300 (default 120)')
    .option('--origin <origin>', 'bind the token to a browser origin')
    .option('--env <environment>', 'prod or staging', 'prod')
    .option('--api-url <url>', 'mint through a running API instead (needs --api-key)')
    .option('--api-key <key>', 'API key for --api-url')
    .option('--json', 'print the whole token object')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm token --customer acme --scopes data:read,render:submit,render:status --ttl 300
  $ render-farm token --customer acme --origin https://shop.example --json
  $ render-farm token --api-url http://127.0.0.1:8080 --api-key rfk_prod_... --scopes data:read`,
    )
    .action(async (opts: TokenOpts, cmd: Command) => {
      const scopes = parseScopes(opts.scopes);
      const ttl = intFlag('ttl', opts.ttl, 30, 300) ?? 120;
      const origin = parseOrigin(opts.origin);
      if (!(ENVIRONMENTS as readonly string[]).includes(opts.env))
        throw new UsageError(`--env must be prod or staging, got "${opts.env}"`);
      let token: { session_token: string };
      if (opts.apiUrl) {
        if (!opts.apiKey) throw new UsageError('--api-url needs --api-key');
        const url = `${opts.apiUrl.replace(/\/+$/, '')}/auth/render-session?environment=${opts.env}`;
        let res: Response;
        try {
          res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${opts.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ ttl_seconds: ttl, scopes, ...(origin ? { origin } : {}) }),
          });
        } catch (err) {
          throw new ExitError(1, `cannot reach ${opts.apiUrl}: ${(err as Error).message}`);
        }
        const body = (await res.json().catch(() => ({}))) as { message?: string; session_token?: string };
        if (!res.ok || !body.session_token)
          throw new ExitError(1, `the API refused (${res.status}): ${body.message ?? 'no message'}`);
        token = body as { session_token: string };
      } else {
        if (!opts.customer?.trim())
          throw new UsageError('--customer is required to mint locally (or use --api-url and --api-key)');
        const cfg = configFor(cmd);
        const { resolveSigningSecret } = await import('../auth/signing-secret.js');
        const { mintSessionToken } = await import('../auth/session-token.js');
        const { ensureCustomer } = await import('../auth/customers.js');
        // the serves' secret: configured, or the one shared through the database
        const { secret, customer } = await withDb(cfg, async (db) => ({
          secret: await resolveSigningSecret(cfg, db.db),
          customer: await ensureCustomer(db.db, opts.customer!.trim()),
        }));
        token = mintSessionToken(secret, {
          customerId: customer.id,
          customerName: customer.name,
          scopes,
          environment: opts.env as Environment,
          ttlSeconds: ttl,
          origin,
        });
      }
      if (opts.json) printJson(token);
      else process.stdout.write(token.session_token + '\n');
    });
}
