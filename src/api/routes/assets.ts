/**
 * Part images at stable URLs (`/assets/parts/<id>`). Public, because <img> tags cannot send
 * Authorization. A part's rendered thumbnail (WebP product shot, `parts.image_key`, made by
 * `pregen --thumbnails` or the `thumbnail` worker task) is served from the artifact store;
 * until one is rendered, a generated per-category placeholder (SVG).
 */
import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { getPartsByIds } from '../../catalog/parts.js';
import type { Category } from '../../model/part.js';
import type { ApiContext } from '../../http/context.js';
import { notFound } from '../../http/http-error.js';

export function partImageUrl(base: string, id: string): string {
  return `${base}/assets/parts/${encodeURIComponent(id)}`;
}

const STYLE: Record<Category, { bg: string; fg: string; label: string; glyph: string }> = {
  PCCase: {
    bg: '#1f2937',
    fg: '#93c5fd',
    label: 'Case',
    glyph:
      '<rect x="70" y="40" width="100" height="160" rx="8"/><rect x="85" y="55" width="70" height="130" rx="4" opacity=".35"/>',
  },
  Motherboard: {
    bg: '#14532d',
    fg: '#86efac',
    label: 'Motherboard',
    glyph:
      '<rect x="50" y="50" width="140" height="140" rx="6"/><rect x="95" y="75" width="40" height="40" opacity=".4"/><rect x="150" y="70" width="8" height="80" opacity=".4"/><rect x="165" y="70" width="8" height="80" opacity=".4"/>',
  },
  CPU: {
    bg: '#312e81',
    fg: '#c4b5fd',
    label: 'CPU',
    glyph:
      '<rect x="70" y="70" width="100" height="100" rx="8"/><rect x="95" y="95" width="50" height="50" opacity=".4"/>',
  },
  CPUCooler: {
    bg: '#0c4a6e',
    fg: '#7dd3fc',
    label: 'CPU Cooler',
    glyph: '<circle cx="120" cy="120" r="62"/><circle cx="120" cy="120" r="18" opacity=".4"/>',
  },
  GPU: {
    bg: '#3f1d0b',
    fg: '#fdba74',
    label: 'GPU',
    glyph:
      '<rect x="30" y="80" width="180" height="80" rx="8"/><circle cx="85" cy="120" r="28" opacity=".4"/><circle cx="155" cy="120" r="28" opacity=".4"/>',
  },
  RAM: {
    bg: '#4a044e',
    fg: '#f0abfc',
    label: 'Memory',
    glyph:
      '<rect x="60" y="50" width="22" height="140" rx="3"/><rect x="95" y="50" width="22" height="140" rx="3"/><rect x="130" y="50" width="22" height="140" rx="3"/><rect x="165" y="50" width="22" height="140" rx="3"/>',
  },
  Storage: {
    bg: '#27272a',
    fg: '#d4d4d8',
    label: 'Storage',
    glyph: '<rect x="40" y="100" width="160" height="40" rx="6"/><circle cx="70" cy="120" r="8" opacity=".4"/>',
  },
  PSU: {
    bg: '#292524',
    fg: '#fcd34d',
    label: 'Power Supply',
    glyph: '<rect x="50" y="70" width="140" height="100" rx="6"/><circle cx="120" cy="120" r="36" opacity=".4"/>',
  },
  CaseFan: {
    bg: '#083344',
    fg: '#67e8f9',
    label: 'Case Fan',
    glyph: '<rect x="60" y="60" width="120" height="120" rx="14"/><circle cx="120" cy="120" r="48" opacity=".4"/>',
  },
};

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function placeholderSvg(category: Category, name: string): string {
  const s = STYLE[category];
  const title = name.length > 34 ? `${name.slice(0, 33)}…` : name;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240"><rect width="240" height="240" fill="${s.bg}"/><g fill="${s.fg}">${s.glyph}</g><text x="120" y="222" font-family="sans-serif" font-size="11" fill="${s.fg}" text-anchor="middle">${escapeXml(title)}</text><text x="120" y="24" font-family="sans-serif" font-size="12" font-weight="bold" fill="${s.fg}" text-anchor="middle">${s.label}</text></svg>`;
}

/**
 * Streams the stored thumbnail (the URL is stable while the image changes with the part's
 * version, so clients revalidate by ETag). False when it is not in the store: placeholder.
 */
async function sendThumbnail(ctx: ApiContext, req: Request, res: Response, key: string): Promise<boolean> {
  const meta = await ctx.store.stat(key).catch(() => null);
  if (!meta) return false;
  res.setHeader('ETag', meta.etag);
  res.setHeader('Cache-Control', 'public, max-age=300');
  if (req.get('if-none-match') === meta.etag) {
    res.status(304).end();
    return true;
  }
  const body = await ctx.store.read(key).catch(() => null);
  if (!body) return false;
  res.setHeader('Content-Type', meta.contentType);
  res.setHeader('Content-Length', String(meta.size));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  await pipeline(body, res).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE' && !req.destroyed)
      ctx.log.warn({ err, key }, 'thumbnail download failed');
  });
  return true;
}

export function assetRoutes(ctx: ApiContext): Router {
  const r = Router();
  r.get('/assets/parts/:id', async (req, res) => {
    const id = String(req.params.id);
    const [part] = /^[a-z0-9]{1,64}$/.test(id) ? await getPartsByIds(ctx.db, [id]) : [];
    if (!part) throw notFound('part_not_found', `no part with id ${JSON.stringify(id)}`);
    if (part.image_key && (await sendThumbnail(ctx, req, res, part.image_key))) return;
    const svg = placeholderSvg(part.category, part.name);
    const etag = `"${createHash('sha1').update(svg).digest('base64url')}"`;
    res.setHeader('ETag', etag);
    // placeholders are replaced by rendered thumbnails later: revalidate, do not cache for long
    res.setHeader('Cache-Control', 'public, max-age=300');
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    res.type('image/svg+xml').send(svg);
  });
  return r;
}
