/**
 * The JSON shapes the console's pages read (the contract in issue 21's plan). Kept apart from
 * the pages so that the server's own types (src/console/console-api.ts) can replace them in
 * one place.
 */

/** POST /console/api/session and GET /console/api/me. */
export interface SessionInfo {
  csrf: string;
  expiresAt: string;
  customer: string;
  admin: boolean;
  environment: string;
}

export interface OverviewWorker {
  id: string;
  host: string;
  backend: string;
  state: 'idle' | 'busy' | 'gone';
  job: string | null;
  chunk: number | null;
  fps: number | null;
  lastSeen: string;
}

export interface Overview {
  workers: OverviewWorker[];
  queues: { kind: string; waiting: number; running: number }[];
  perMinute: { t: string; count: number }[];
  failures: { hour: number; day: number };
  store: { bytes: number; renders: number };
}

/** A cancelled job ends in `error`, its message saying so. */
export type JobStatus = 'queued' | 'processing' | 'completed' | 'error';

export interface JobSummary {
  id: string;
  status: JobStatus;
  progress: number;
  format: string;
  kind: string;
  customer: string;
  environment: string;
  createdAt: string;
  updatedAt: string;
  error: string | null;
}

export interface JobsPage {
  jobs: JobSummary[];
  next: string | null;
}

/** A sprite sheet's geometry as the job object reports it (src/model/sprite-layout.ts). */
export interface SpriteLayoutView {
  columns: number;
  rows: number;
  frames: number;
  frame_width: number;
  frame_height: number;
}

export interface JobFull extends JobSummary {
  request: unknown;
  estimatedCostS: number | null;
  attempts: number;
  result: { video?: string; sprite?: string; screenshot?: string; spriteLayout?: SpriteLayoutView | null } | null;
}

export interface ChunkView {
  idx: number;
  start: number;
  end: number;
  status: string;
  worker: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  framesDone: number;
  attempts: number;
  error: string | null;
}

export interface JobDetailView {
  job: JobFull;
  chunks: ChunkView[];
}

/** One `event: job` of /console/api/events. */
export interface JobEvent {
  id: string;
  status: JobStatus;
  progress: number;
  error?: string | null;
}

export interface CatalogPart {
  id: string;
  name: string;
  category: string;
  specs: Record<string, unknown>;
  thumbnail: string | null;
}

export interface CatalogBuild {
  shareCode: string;
  name: string;
  parts: { id: string; name: string; category: string }[];
}

export interface PregenEntry {
  build: string;
  format: string;
  size: string;
  status: 'ok' | 'stale' | 'missing';
  url?: string;
}

export interface KeyView {
  id: string;
  prefix: string;
  customer: string;
  scopes: string[];
  admin: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface WebhookView {
  id: string;
  url: string;
  customer: string;
  events: string[];
  disabledAt: string | null;
}

export interface DeliveryView {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastAttemptAt: string | null;
  responseStatus: number | null;
}
