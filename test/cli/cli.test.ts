import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import jwt from 'jsonwebtoken';
import { beforeAll, describe, expect, it } from 'vitest';
import { findApiKey } from '../../src/auth/api-keys.js';
import { resolveSigningSecret } from '../../src/auth/signing-secret.js';
import { verifySessionToken } from '../../src/auth/session-token.js';
import { loadConfig } from '../../src/config.js';
import { useTestDb } from '../helpers/db.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');

describe('CLI as a child process', () => {
  const t = useTestDb();
  let cli: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>;

  beforeAll(async () => {
    // no signing secret in the env: the CLI must create the shared one in the database
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: t.url,
      RENDER_FARM_DATA_DIR: t.cfg.dataDir,
    };
    cli = async (...args) => {
      try {
        const r = await run('node', [BIN, ...args], { env, timeout: 60_000 });
        return { code: 0, ...r };
      } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
      }
    };
  });

  it('--help lists the commands with examples; unknown commands exit 2', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const c of ['up', 'serve', 'db', 'catalog', 'keys', 'builds', 'token', 'render'])
      expect(help.stdout).toContain(c);
    expect(help.stdout).toContain('Examples:');
    const tokenHelp = await cli('token', '--help');
    expect(tokenHelp.stdout).toContain('--origin');
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('keys create prints a working key once; keys list shows only the prefix; revoke works', async () => {
    const created = await cli('keys', 'create', '--customer', 'cli-co', '--json');
    expect(created.code).toBe(0);
    const { key, id, prefix } = JSON.parse(created.stdout);
    expect(key).toMatch(/^rfk_prod_/);
    expect(key.startsWith(prefix)).toBe(true);
    const rec = await findApiKey(t.db.db, key);
    expect(rec?.customerName).toBe('cli-co');
    const list = await cli('keys', 'list');
    expect(list.stdout).toContain(prefix);
    expect(list.stdout).not.toContain(key);
    expect((await cli('keys', 'revoke', id)).code).toBe(0);
    expect((await findApiKey(t.db.db, key))?.revokedAt).not.toBeNull();
    expect((await cli('keys', 'revoke', '00000000-0000-0000-0000-000000000000')).code).toBe(2);
    expect((await cli('keys', 'create', '--customer', 'x', '--env', 'qa')).code).toBe(2);
  });

  it('keys create --admin makes an admin key (models:write), listed as admin; token refuses models:write', async () => {
    const created = await cli('keys', 'create', '--customer', 'ops', '--admin', '--json');
    expect(created.code).toBe(0);
    const { key, admin } = JSON.parse(created.stdout);
    expect(admin).toBe(true);
    expect((await findApiKey(t.db.db, key))?.admin).toBe(true);
    const plain = JSON.parse((await cli('keys', 'create', '--customer', 'ops', '--json')).stdout);
    expect(plain.admin).toBe(false);
    const list = await cli('keys', 'list');
    expect(list.stdout).toMatch(new RegExp(`${key.slice(0, 16)}….*  admin  active`));
    expect(list.stdout).not.toMatch(new RegExp(`${plain.key.slice(0, 16)}….*admin`));
    const token = await cli('token', '--customer', 'ops', '--scopes', 'data:read,models:write');
    expect(token.code).toBe(2);
    expect(token.stderr).toContain('models:write is for admin API keys only');
  });

  it('token mints a verifiable JWT with the secret shared through the database', async () => {
    const r = await cli(
      'token',
      '--customer',
      'cli-co',
      '--scopes',
      'data:read,render:submit',
      '--ttl',
      '60',
      '--origin',
      'https://shop.example',
    );
    expect(r.code).toBe(0);
    const secret = await resolveSigningSecret(loadConfig({ dataDir: t.cfg.dataDir }, {}), t.db.db);
    const claims = verifySessionToken(secret, r.stdout.trim());
    expect(claims).toMatchObject({
      cus: 'cli-co',
      scp: ['data:read', 'render:submit'],
      env: 'prod',
      org: 'https://shop.example',
    });
    expect(claims.exp - claims.iat).toBe(60);
    const json = JSON.parse((await cli('token', '--customer', 'cli-co', '--json')).stdout);
    expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 120, scopes: ['render:submit', 'render:status'] });
    expect(jwt.decode(json.session_token, { complete: true })?.header.alg).toBe('HS256');
  });

  it('token rejects bad flags with exit 2 and one clear line', async () => {
    for (const args of [
      ['--customer', 'a', '--ttl', '10'],
      ['--customer', 'a', '--scopes', 'admin'],
      ['--customer', 'a', '--origin', 'ftp://x'],
      [],
    ]) {
      const r = await cli('token', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
  });

  it('a bad DATABASE_URL gives one line naming the problem and exit 1', async () => {
    const r = await run('node', [BIN, 'keys', 'list'], {
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none' },
    }).catch((e) => e as { code: number; stderr: string });
    expect((r as { code: number }).code).toBe(1);
    expect((r as { stderr: string }).stderr).toMatch(/cannot connect to PostgreSQL.*DATABASE_URL/);
    expect((r as { stderr: string }).stderr).not.toContain(':x@');
  });
});
