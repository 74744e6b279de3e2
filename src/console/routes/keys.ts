/** The keys page (operators): every API key with its scopes, never the key itself. */
import { Router } from 'express';
import { listApiKeys } from '../../auth/api-keys.js';
import { ADMIN_KEY_SCOPES, API_KEY_SCOPES, CONSOLE_KEY_SCOPES } from '../../auth/scopes.js';
import type { ApiContext } from '../../http/context.js';
import type * as Api from '../console-api.js';
import { requireAdmin } from '../console-security.js';
import { iso } from '../iso-time.js';

export function keyRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/console/api/keys', async (req, res) => {
    requireAdmin(req);
    const keys = await listApiKeys(ctx.db.db);
    const body: Api.KeyView[] = keys.map((k) => ({
      id: k.id,
      prefix: k.prefix,
      customer: k.customerName,
      scopes: [...(k.admin ? ADMIN_KEY_SCOPES : k.console ? CONSOLE_KEY_SCOPES : API_KEY_SCOPES)],
      admin: k.admin,
      createdAt: new Date(k.createdAt).toISOString(),
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
    }));
    res.json(body);
  });
  return r;
}
