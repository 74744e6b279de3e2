/**
 * The jobs a console session may see (an admin's all, a customer key's its own in its
 * environment) and how the console shows one: a list row (JobSummary) or in full (JobFull).
 */
import type { Request } from 'express';
import type { ConsoleSession } from '../auth/console-session.js';
import type { Environment } from '../auth/scopes.js';
import { getPartsByIds } from '../catalog/parts.js';
import { jobView } from '../jobs/job-view.js';
import { getJob, getJobForCustomer, sharedWithOthers, type JobRecord } from '../jobs/jobs-repository.js';
import { isUuid } from '../model/uuid.js';
import { publicBase, type ApiContext } from '../http/context.js';
import { notFound } from '../http/http-error.js';
import type * as Api from './console-api.js';
import { sessionOf } from './console-security.js';

/** The jobs a session may see: an admin's all, a customer key's its own in its environment. */
export function owner(s: ConsoleSession): { customerId: string; environment: Environment } | undefined {
  return s.admin ? undefined : { customerId: s.customerId, environment: s.environment };
}

export async function findJob(ctx: ApiContext, s: ConsoleSession, id: string): Promise<JobRecord> {
  const o = owner(s);
  const job = isUuid(id) ? (o ? await getJobForCustomer(ctx.db, id, o) : await getJob(ctx.db, id)) : null;
  if (!job) throw notFound('job_not_found', `no job ${id}${o ? ' for this customer' : ''}`);
  return job;
}

/** What the console shows of a stored request (older rows may lack fields: read loosely). */
function requestOf(j: JobRecord): {
  parts: Record<string, string[]>;
  options: { width?: number; height?: number; profile?: string; scene?: string };
} {
  const req = (j.render.request ?? {}) as { parts?: Record<string, string[]>; options?: Record<string, unknown> };
  const o = req.options ?? {};
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    parts: req.parts ?? {},
    options: { width: num(o.width), height: num(o.height), profile: str(o.profile), scene: str(o.scene) },
  };
}

export function summary(j: JobRecord, customer: string): Api.JobSummary {
  const r = j.render;
  const { parts, options } = requestOf(j);
  const partCount = Object.values(parts).reduce((n, ids) => n + ids.length, 0);
  return {
    id: j.jobId,
    status: r.status,
    progress: r.status === 'completed' ? 1 : Number(r.progress ?? 0),
    format: r.format,
    kind: customer === 'pregen' ? 'pregen' : 'render',
    customer,
    environment: j.environment,
    build: j.shareCode ?? `${partCount} part${partCount === 1 ? '' : 's'}`,
    size: options.width && options.height ? `${options.width}x${options.height}` : null,
    createdAt: new Date(j.createdAt).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    error: r.error,
  };
}

async function customerName(ctx: ApiContext, customerId: string): Promise<string> {
  const c = await ctx.db.db.selectFrom('customers').select('name').where('id', '=', customerId).executeTakeFirst();
  return c?.name ?? '?';
}

export async function fullJob(ctx: ApiContext, req: Request, j: JobRecord): Promise<Api.JobFull> {
  const s = sessionOf(req);
  const view = await jobView(j.jobId, j.render, (key) => ctx.store.url(key, publicBase(ctx, req)), {
    shareCode: j.shareCode,
    createdAt: j.createdAt,
  });
  const result =
    j.render.status === 'completed'
      ? {
          ...(view.video_url ? { video: view.video_url } : {}),
          ...(view.sprite_url ? { sprite: view.sprite_url } : {}),
          ...(view.screenshot_url ? { screenshot: view.screenshot_url } : {}),
          spriteLayout: (j.render.sprite_layout as Api.SpriteLayoutView | null) ?? null,
        }
      : null;
  const { parts, options } = requestOf(j);
  const names = new Map(
    (await getPartsByIds(ctx.db, [...new Set(Object.values(parts).flat())])).map((p) => [p.id, p.name]),
  );
  return {
    ...summary(j, await customerName(ctx, j.customerId)),
    parts: Object.entries(parts).flatMap(([category, ids]) =>
      ids.map((id) => ({ category, id, name: names.get(id) ?? null })),
    ),
    profile: options.profile ?? null,
    scene: options.scene ?? null,
    request: j.render.request,
    estimatedCostS: j.render.estimated_cost_s === null ? null : Number(j.render.estimated_cost_s),
    attempts: j.render.attempts,
    shareCode: j.shareCode,
    result,
    // what cancelJob would refuse this session: a customer's key may not cancel a render another customer shares
    mayCancel:
      (j.render.status === 'queued' || j.render.status === 'processing') &&
      (s.admin || !(await sharedWithOthers(ctx.db, j.render.id, j.customerId))),
  };
}
