/** The render job object (docs/design-decisions.md, "The job object"; its fields: docs/api.md). */
import type { RenderArtifacts, RenderRow } from './render-row.js';
import { isFinal } from '../model/job-status.js';

export interface JobView {
  job_id: string;
  status: RenderRow['status'];
  job_type: 'render';
  url: string | null;
  video_url: string | null;
  sprite_url: string | null;
  screenshot_url: string | null;
  end_time: string | null;
  progress: number;
  created_at: string;
  error?: string;
  sprite?: Record<string, number> | null;
  share_code?: string;
  /** a render split into frame-range chunks (farm v2): how many, and how many are rendered */
  chunks?: { total: number; done: number };
}

/** The columns of a render that its job view shows (a poll reads only these). */
export type ViewedRender = Pick<
  RenderRow,
  | 'status'
  | 'format'
  | 'progress'
  | 'artifacts'
  | 'sprite_layout'
  | 'error'
  | 'finished_at'
  | 'created_at'
  | 'chunk_total'
  | 'chunks_done'
>;

/** The column names of ViewedRender, for the statements that read only them. */
export const VIEWED_RENDER_COLUMNS = [
  'status',
  'format',
  'progress',
  'artifacts',
  'sprite_layout',
  'error',
  'finished_at',
  'created_at',
  'chunk_total',
  'chunks_done',
] as const;

/** `urlFor` turns an artifact key into a client URL (the artifact store decides how). */
export async function jobView(
  jobId: string,
  render: ViewedRender,
  urlFor: (key: string) => Promise<string>,
  extra: { shareCode?: string | null; createdAt?: Date } = {},
): Promise<JobView> {
  const a = (render.status === 'completed' ? (render.artifacts ?? {}) : {}) as RenderArtifacts;
  const [video, sprite, screenshot] = await Promise.all([
    a.video ? urlFor(a.video) : null,
    a.sprite ? urlFor(a.sprite) : null,
    a.screenshot ? urlFor(a.screenshot) : null,
  ]);
  const ended = isFinal(render.status);
  return {
    job_id: jobId,
    status: render.status,
    job_type: 'render',
    url: video ?? sprite,
    video_url: video,
    sprite_url: sprite,
    screenshot_url: screenshot,
    end_time: ended && render.finished_at ? new Date(render.finished_at).toISOString() : null,
    progress: render.status === 'completed' ? 1 : Number(render.progress ?? 0),
    created_at: new Date(extra.createdAt ?? render.created_at).toISOString(),
    ...(render.status === 'error' ? { error: render.error ?? 'the render failed' } : {}),
    ...(render.format === 'sprite' ? { sprite: render.sprite_layout } : {}),
    ...(extra.shareCode ? { share_code: extra.shareCode } : {}),
    ...(render.chunk_total ? { chunks: { total: render.chunk_total, done: render.chunks_done ?? 0 } } : {}),
  };
}
