/**
 * Text for `render-farm top`: the same lines for the ink view (which highlights the selected
 * job) and for `--once` (plain output for scripts and logs). Pure functions of a snapshot.
 */
import { formatBytes } from '../jobs/cache-stats.js';
import type { FarmSnapshot, JobRow } from './farm-snapshot.js';
import type { JobDetail } from './job-detail.js';

export function progressBar(p: number, width = 12): string {
  const filled = Math.max(0, Math.min(width, Math.round(p * width)));
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

/** 42s, 3m05s, 2h10m */
export function duration(s: number): string {
  const t = Math.round(s);
  if (t < 60) return `${t}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`;
}

const pad = (s: string, n: number) => (s.length > n ? s.slice(0, n - 1) + '…' : s.padEnd(n));

export function headerLine(s: FarmSnapshot): string {
  const live = s.workers.filter((w) => w.state === 'idle' || w.state === 'rendering').length;
  const queued = s.queue.reduce((n, q) => n + q.queued, 0);
  return `render-farm top  ${s.at.toISOString().slice(11, 19)}Z  workers ${live}  queued ${queued}  running ${s.running.length}`;
}

export function workerLines(s: FarmSnapshot): string[] {
  if (!s.workers.length)
    return ['WORKERS  none: start one with "render-farm worker" (renders wait in the queue meanwhile)'];
  const lines = [
    'WORKERS',
    `  ${pad('HOST', 20)} ${pad('PID', 7)} ${pad('GL', 12)} ${pad('STATE', 10)} ${pad('JOB', 9)} ${pad('PROGRESS', 17)} ${pad('FPS', 6)} BEAT`,
  ];
  for (const w of s.workers) {
    lines.push(
      `  ${pad(w.host, 20)} ${pad(String(w.pid), 7)} ${pad(w.backend, 12)} ${pad(w.state, 10)} ${pad(w.jobId ? w.jobId.slice(0, 8) : '-', 9)} ${pad(
        w.progress !== null
          ? `${progressBar(w.progress, 10)} ${String(Math.round(w.progress * 100)).padStart(3)}%`
          : '',
        17,
      )} ${pad(w.fps !== null ? w.fps.toFixed(1) : '-', 6)} ${duration(w.heartbeatAgoS)} ago`,
    );
  }
  return lines;
}

export function queueLines(s: FarmSnapshot): string[] {
  const kinds = s.queue.map((q) => `${q.kind} ${q.queued}${q.running ? ` (+${q.running} running)` : ''}`).join('   ');
  const customers = s.customers.length
    ? s.customers.map((c) => `${c.customer} ${c.queued}q/${c.processing}r`).join('   ')
    : 'none waiting';
  const e = s.errors;
  return [
    `QUEUE      ${kinds}`,
    `CUSTOMERS  ${customers}`,
    `ERRORS     renders failed 1h ${e.lastHour} / 24h ${e.lastDay}   retrying ${e.retrying}   webhook deliveries failed 24h ${e.webhooksFailedDay}`,
    `STORE      ${formatBytes(s.store.bytes)} in ${s.store.renders} renders   swept by retention ${s.store.sweptRenders} renders (${formatBytes(s.store.sweptBytes)})`,
  ];
}

export interface JobLine {
  jobId: string;
  status: JobRow['status'];
  text: string;
}

function jobText(j: JobRow): string {
  const what = `${j.format} ${j.size} ${j.profile}`.trim();
  const who = j.customers.join(',');
  const state =
    j.status === 'processing'
      ? `${progressBar(j.progress, 10)} ${String(Math.round(j.progress * 100)).padStart(3)}%`
      : j.status === 'queued'
        ? `waiting ${duration(j.seconds)}`
        : j.status === 'completed'
          ? `took ${duration(j.seconds)}`
          : 'failed';
  const tail =
    j.status === 'processing'
      ? `${duration(j.seconds)} on ${j.worker ?? '?'}`
      : j.status === 'error'
        ? (j.error ?? '')
        : j.finishedAgoS !== null
          ? `${duration(j.finishedAgoS)} ago`
          : '';
  return `${j.jobId.slice(0, 8)}  ${pad(j.status, 10)} ${pad(state, 17)} ${pad(who, 12)} ${pad(what, 22)} ${tail}`;
}

/** Running first, then waiting, then recently finished: the rows the arrows move through. */
export function jobLines(s: FarmSnapshot): JobLine[] {
  return [...s.running, ...s.waiting, ...s.recent].map((j) => ({ jobId: j.jobId, status: j.status, text: jobText(j) }));
}

export const JOBS_HEADER = `${pad('JOB', 8)}  ${pad('STATUS', 10)} ${pad('PROGRESS', 17)} ${pad('CUSTOMER', 12)} ${pad('RENDER', 22)} DETAIL`;

export function detailLines(d: JobDetail): string[] {
  const t = (x: Date | null) => (x ? new Date(x).toISOString() : '-');
  const opts = d.options as Record<string, unknown>;
  return [
    `JOB ${d.jobId}  (render ${d.renderId}, cache key ${d.cacheKey.slice(0, 16)}…)`,
    `  status     ${d.status}${d.status === 'processing' ? ` ${progressBar(d.progress)} ${Math.round(d.progress * 100)}%` : ''}   attempts ${d.attempts}`,
    `  customers  ${d.customers.join(', ')}${d.shareCode ? `   share code ${d.shareCode}` : ''}`,
    `  render     ${opts.format ?? ''} ${opts.width ?? ''}x${opts.height ?? ''} ${opts.profile ?? ''} scene ${opts.scene ?? ''} frames ${opts.frames ?? ''}`,
    `  parts      ${Object.entries(d.parts)
      .map(([c, ids]) => `${c}=${ids.join(',')}`)
      .join(' ')}`,
    `  worker     ${d.worker ?? '-'}${d.backend ? ` (${d.backend})` : ''}`,
    `  times      queued ${t(d.createdAt)}  started ${t(d.startedAt)}  finished ${t(d.finishedAt)}`,
    ...(d.renderMs !== null
      ? [`  took       ${(d.renderMs / 1000).toFixed(1)} s${d.fps ? `, ${d.fps.toFixed(1)} frames/s` : ''}`]
      : []),
    ...(d.error ? [`  error      ${d.error}`] : []),
    ...Object.entries(d.artifacts).map(([k, v]) => `  ${pad(k, 10)} ${v}`),
  ];
}

/** The whole screen as plain text (`top --once`). */
export function formatTopPlain(s: FarmSnapshot): string {
  const jobs = jobLines(s);
  return (
    [
      headerLine(s),
      '',
      ...workerLines(s),
      '',
      ...queueLines(s),
      '',
      'JOBS',
      ...(jobs.length ? [`  ${JOBS_HEADER}`, ...jobs.map((j) => `  ${j.text}`)] : ['  none in the last 24 hours']),
    ].join('\n') + '\n'
  );
}
