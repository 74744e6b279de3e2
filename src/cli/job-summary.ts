/**
 * `jobs show` for people: one job in a screenful (state, build, what is rendered, who, where,
 * when in ISO UTC, the result URLs, the error) and a split render's chunks as a table. `--json`
 * prints the whole record instead, for scripts.
 */
import type { ChunkView } from '../jobs/jobs-repository.js';
import { CATEGORIES } from '../model/part.js';
import type { JobDetail } from '../top/job-detail.js';
import { table } from './table.js';

/** ISO 8601 UTC to the second: the precision a person reads. */
const iso = (d: Date | null) => (d ? new Date(d).toISOString().replace(/\.\d+Z$/, 'Z') : '-');

const LABEL = 11;
const line = (label: string, value: string) => `${label.padEnd(LABEL)}${value}`;

/** The URLs of a completed render's files, by kind (video, sprite, screenshot). */
export type JobUrls = Partial<Record<'video' | 'sprite' | 'screenshot', string>>;

export function formatJobSummary(d: JobDetail, chunks: readonly ChunkView[], urls: JobUrls): string {
  const o = d.options;
  const sprite = o.sprite as { columns?: number; rows?: number } | null | undefined;
  const what = [
    `${String(o.format ?? '?')} ${String(o.width ?? '?')}x${String(o.height ?? '?')}`,
    `profile ${String(o.profile ?? '?')}`,
    `scene ${String(o.scene ?? '?')}`,
    `${String(o.frames ?? '?')} frames${sprite?.columns ? ` (${sprite.columns}x${sprite.rows} sheet)` : ''}`,
  ];
  // categories in the catalog's order (the stored jsonb keeps its own)
  const order = (c: string) => (CATEGORIES as readonly string[]).indexOf(c) + 1 || CATEGORIES.length + 1;
  const parts = Object.entries(d.parts)
    .sort(([a], [b]) => order(a) - order(b))
    .map(([c, ids]) => `${c}=${ids.join(',')}`)
    .join(' ');
  const state =
    d.status === 'processing'
      ? `processing ${Math.round(d.progress * 100)}%`
      : d.status === 'completed'
        ? 'completed'
        : d.status;
  const took =
    d.renderMs !== null
      ? ` (took ${(d.renderMs / 1000).toFixed(1)} s${d.fps ? `, ${d.fps.toFixed(1)} frames/s` : ''})`
      : '';
  const lines = [
    line('job', d.jobId),
    line('status', `${state}${d.attempts ? `, attempt ${d.attempts}` : ''}`),
    line('build', d.shareCode ? `${d.shareCode}: ${parts}` : parts || '-'),
    line('render', what.join(', ')),
    line('customer', d.customers.join(', ') || '-'),
    line('worker', d.worker ? `${d.worker}${d.backend ? ` (${d.backend})` : ''}` : '-'),
    line('created', iso(d.createdAt)),
    line('started', iso(d.startedAt)),
    line('finished', `${iso(d.finishedAt)}${took}`),
    ...(urls.video ? [line('video', urls.video)] : []),
    ...(urls.sprite ? [line('sprite', urls.sprite)] : []),
    ...(urls.screenshot ? [line('screenshot', urls.screenshot)] : []),
    ...(d.error ? [line('error', d.error)] : []),
  ];
  if (chunks.length) {
    lines.push(line('chunks', `${chunks.length}, ${chunks.filter((c) => c.status === 'done').length} done`));
    const rows = chunks.map((c) => [
      String(c.chunk),
      c.frames,
      c.status,
      c.worker ?? '-',
      c.seconds === null ? '-' : c.seconds.toFixed(1),
      String(c.attempts),
      c.error ?? '',
    ]);
    lines.push(
      ...table(['CHUNK', 'FRAMES', 'STATUS', 'WORKER', 'SECONDS', 'ATTEMPTS', 'ERROR'], rows)
        .trimEnd()
        .split('\n')
        .map((l) => `  ${l}`),
    );
  }
  return lines.join('\n') + '\n';
}
