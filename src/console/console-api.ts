/**
 * The web console's JSON shapes (docs/console.md), as the server sends them: the pages import these
 * types only (`import type`), so the two sides cannot drift. Times are ISO 8601 strings. Job
 * statuses are the API's four (src/model/job-status.ts, re-exported here for the pages, which
 * import nothing else of src/): a cancelled job is `error` with an error starting `cancelled:`.
 */
import type { JobStatus } from '../model/job-status.js';

export { isFinal, JOB_STATUSES, type JobStatus } from '../model/job-status.js';

/** POST /console/api/session and GET /console/api/me. */
export interface SessionInfo {
  csrf: string;
  expiresAt: string;
  customer: string;
  /** an admin key: every customer's jobs, the keys and webhooks pages */
  admin: boolean;
  environment: string;
}

export interface OverviewWorker {
  id: string;
  /** host:pid */
  host: string;
  backend: string;
  state: 'idle' | 'busy' | 'gone';
  /** the job it renders (null when idle, or another customer's job on a non-admin session) */
  job: string | null;
  /** the chunk (index) of a split render it renders now (the job page's timeline has them all) */
  chunk: number | null;
  fps: number | null;
  lastSeen: string;
}

export interface Overview {
  workers: OverviewWorker[];
  queues: { kind: string; waiting: number; running: number }[];
  /** renders completed per minute, the last 60 minutes, oldest first */
  perMinute: { t: string; count: number }[];
  failures: { hour: number; day: number };
  store: { bytes: number; renders: number };
}

/** GET /console/api/workers/:id (admin keys): one worker as its heartbeats report it (`workers show`). */
export interface WorkerDetailView {
  id: string;
  /** host:pid */
  host: string;
  concurrency: number;
  backend: string;
  version: string | null;
  rendererVersion: string | null;
  /** running, draining (asked to drain: finishing what it runs), stopped, gone (silent, not swept yet) */
  state: 'running' | 'draining' | 'stopped' | 'gone';
  startedAt: string;
  lastSeen: string;
  stoppedAt: string | null;
  uptimeS: number;
  memory: { rss: number; heap: number } | null;
  jobsDone: number;
  jobsFailed: number;
  lastError: string | null;
  lastErrorAt: string | null;
  drainRequestedAt: string | null;
  /** what it renders now: a job of each render (for its page), and the chunk of a split one */
  running: { job: string | null; chunk: number | null }[];
}

export interface JobSummary {
  id: string;
  status: JobStatus;
  progress: number;
  format: string;
  /** `pregen` (the pregenerated cache's renders) or `render` */
  kind: 'render' | 'pregen';
  customer: string;
  environment: string;
  /** the saved build's share code, else how many parts the request lists (`7 parts`) */
  build: string;
  /** the requested frame size, WIDTHxHEIGHT (a sprite's layout may be smaller: spriteLayout) */
  size: string | null;
  createdAt: string;
  updatedAt: string;
  error: string | null;
}

/** GET /console/api/jobs: newest first; `next` is the `before` of the next page. */
export interface JobsPage {
  jobs: JobSummary[];
  next: string | null;
}

/** GET /console/api/jobs/retry-failed: what "Retry all failed" would retry (cancelled and expired renders are not failures). */
export interface FailedCount {
  renders: number;
  /** the session's jobs waiting on those renders (identical requests share one) */
  jobs: number;
}

/** POST /console/api/jobs/retry-failed */
export interface RetryFailedResult {
  /** one job id per render queued again */
  retried: string[];
  /** the session's jobs those renders serve */
  jobs: number;
  refused: { id: string; reason: string }[];
  /** failed renders past this call's limit: retry again for them */
  remaining: number;
}

/** A sprite sheet's geometry (src/model/sprite-layout.ts, as the job object reports it). */
export type SpriteLayoutView = Record<string, number>;

export interface JobFull extends JobSummary {
  /** the request's parts, with their catalog names (null: no longer in the catalog) */
  parts: { category: string; id: string; name: string | null }[];
  profile: string | null;
  scene: string | null;
  request: unknown;
  estimatedCostS: number | null;
  attempts: number;
  shareCode: string | null;
  /** URLs of the files (completed jobs), null otherwise */
  result: { video?: string; sprite?: string; screenshot?: string; spriteLayout?: SpriteLayoutView | null } | null;
  /** this session may cancel it: it is queued or processing, and (a customer's key) no other customer's job shares its render */
  mayCancel: boolean;
}

export interface ChunkView {
  idx: number;
  /** frames [start, end) */
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

/** GET /console/api/jobs/:id */
export interface JobDetailView {
  job: JobFull;
  chunks: ChunkView[];
}

/** One `event: job` of GET /console/api/events (SSE). */
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

/** One entry of the pregenerated cache, as `pregen ls` lists it. */
export interface PregenEntry {
  key: string;
  /** the share code of a saved build (`build:CODE`), else the source as recorded (`matrix`, `file:...`) */
  build: string;
  source: string;
  format: string;
  /** WIDTHxHEIGHT */
  size: string;
  profile: string;
  bytes: number;
  state: 'current' | 'stale';
  /** why stale: drawn by another renderer version, or with other part models */
  staleReasons: string[];
  createdAt: string;
  url: string | null;
}

/** The saved builds in one variant (a format and profile at its default size). */
export interface PregenCoverage {
  format: string;
  profile: string;
  size: string;
  current: number;
  stale: number;
  missing: number;
}

/** GET /console/api/pregen */
export interface PregenView {
  rendererVersion: string;
  /** the whole cache; `entries` lists at most the newest 500 */
  totals: { entries: number; bytes: number };
  entries: PregenEntry[];
  coverage: PregenCoverage[];
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
