/** Kysely table types; keep in step with sql/. */
import type { ColumnType, Generated } from 'kysely';
import type { Category, Part, PartIdMap } from '../model/part.js';
import type { InteractiveState } from '../model/interactive-state.js';
import type { JobStatus } from '../model/job-status.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface CustomersTable {
  id: Generated<string>;
  name: string;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  customer_id: string;
  environment: 'prod' | 'staging';
  prefix: string;
  key_hash: string;
  created_at: Timestamp;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** an admin key carries the models:write scope (sql/0011_admin_keys.sql) */
  admin: Generated<boolean>;
  /** the key may sign in to the web console (sql/0015_console.sql); admin keys may anyway */
  console: Generated<boolean>;
}

export interface PartsTable {
  id: string;
  category: Category;
  name: string;
  specs: Json<Part['specs']>;
  raw: Json<unknown> | null;
  opendb_id: string | null;
  version: Generated<number>;
  image_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BuildsTable {
  share_code: string;
  name: string;
  description: Generated<string>;
  parts: Json<PartIdMap>;
  interactive_state: Json<InteractiveState> | null;
  created_at: Timestamp;
}

export interface SchemaMigrationsTable {
  version: string;
  applied_at: Timestamp;
}

export type RenderStatus = JobStatus;

export interface RendersTable {
  id: Generated<string>;
  cache_key: string;
  status: ColumnType<RenderStatus, RenderStatus | undefined, RenderStatus>;
  format: 'video' | 'sprite';
  request: Json<Record<string, unknown>>;
  progress: ColumnType<number, number | undefined, number>;
  artifacts: Json<Record<string, string>> | null;
  sprite_layout: Json<Record<string, number>> | null;
  error: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  worker_id: string | null;
  locked_by: string | null;
  /** the current holder's claim token, set by each claim (sql/0012_claim_tokens.sql) */
  claim: ColumnType<string | null, string | null | undefined, string | null>;
  backend: string | null;
  frames_per_second: number | null;
  render_ms: number | null;
  /** admission estimate, CPU-seconds (sql/0008_render_admission.sql) */
  estimated_cost_s: ColumnType<number | null, number | undefined, number>;
  /** part data versions and renderer version the cache key was computed with (sql/0008) */
  part_versions: Json<Record<string, number>> | null;
  renderer_version: ColumnType<string | null, string | undefined, string>;
  /** the current chunk split, NULL when rendered in one task (sql/0009_render_chunks.sql) */
  chunk_plan: string | null;
  chunk_total: number | null;
  chunks_done: number | null;
  /** part ID -> model sha256 the cache key was computed with; NULL: no models (sql/0010_part_models.sql) */
  models: Json<Record<string, string>> | null;
  /** storage lifecycle (sql/0013_storage_retention.sql): last submit, poll or /artifacts read (throttled to a minute) */
  last_requested_at: Timestamp;
  /** bytes of the render's files while they are stored; NULL: none, or not measured yet */
  artifact_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  /** when retention removed its files (the render is then `error`, reopened when asked for again) */
  expired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Timestamp;
}

export interface JobsTable {
  id: Generated<string>;
  customer_id: string;
  /** the environment of the credential that submitted it (sql/0004_job_environment.sql) */
  environment: ColumnType<'prod' | 'staging', 'prod' | 'staging' | undefined, 'prod' | 'staging'>;
  render_id: string;
  share_code: string | null;
  created_at: Timestamp;
}

export interface WorkersTable {
  id: string;
  hostname: string;
  pid: number;
  concurrency: number;
  graphile_ids: ColumnType<string[], string[] | undefined, string[]>;
  backend: Json<Record<string, unknown>> | null;
  /** measured seconds per megapixel-frame by profile (sql/0009) */
  speed: Json<Record<string, number>> | null;
  started_at: Timestamp;
  last_seen: Timestamp;
  stopped_at: Date | null;
  /** package and renderer version, set at registration (sql/0017) */
  version: string | null;
  renderer_version: string | null;
  /** bytes, from the last heartbeat */
  memory_rss: ColumnType<string | null, number | null | undefined, number | null>;
  memory_heap: ColumnType<string | null, number | null | undefined, number | null>;
  jobs_done: ColumnType<number, number | undefined, number>;
  jobs_failed: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  last_error_at: Date | null;
  /** a drain asked through the database; the worker's heartbeat reads it */
  drain_requested_at: Date | null;
}

export type ChunkStatus = 'queued' | 'processing' | 'done' | 'error';

/** One frame range of a chunked render (sql/0009_render_chunks.sql). */
export interface RenderChunksTable {
  render_id: string;
  plan: string;
  idx: number;
  start_frame: number;
  end_frame: number;
  status: ColumnType<ChunkStatus, ChunkStatus | undefined, ChunkStatus>;
  frames_done: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  worker_id: string | null;
  locked_by: string | null;
  /** the current holder's claim token (sql/0012_claim_tokens.sql) */
  claim: ColumnType<string | null, string | null | undefined, string | null>;
  pieces: Json<Record<string, string>> | null;
  render_ms: number | null;
  backend: string | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Timestamp;
}

/** A pregenerated render (sql/0003_pregenerated.sql; written by src/pregen). */
export interface PregeneratedTable {
  combination_key: string;
  format: 'video' | 'sprite';
  width: number;
  height: number;
  profile: string;
  options: Json<Record<string, unknown>>;
  parts: Json<PartIdMap>;
  visible: Json<Record<string, unknown>>;
  artifact_key: string;
  content_type: string;
  /** bigint: pg returns it as a string */
  bytes: ColumnType<string, number | string, number | string>;
  renderer_version: string;
  render_ms: number | null;
  frames_per_second: number | null;
  source: ColumnType<string, string | undefined, string>;
  created_at: Timestamp;
}

/** A model given to a part (sql/0010_part_models.sql); the part's current one is its newest unretired row. */
export interface PartModelsTable {
  /** bigserial: pg returns it as a string */
  id: Generated<string>;
  part_id: string;
  sha256: string;
  original_name: string | null;
  /** bigint: pg returns it as a string */
  original_bytes: ColumnType<string | null, number | string | null, number | string | null>;
  prepared_bytes: ColumnType<string | null, number | string | null, number | string | null>;
  triangles: number | null;
  original_triangles: number | null;
  scale: number | null;
  created_by: string | null;
  created_at: Timestamp;
  retired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** the rotation and units applied (sql/0018); NULL on rows stored before */
  rotation: ColumnType<string | null, string | null | undefined, string | null>;
  units: ColumnType<string | null, string | null | undefined, string | null>;
  up_axis: ColumnType<string | null, string | null | undefined, string | null>;
  front_axis: ColumnType<string | null, string | null | undefined, string | null>;
  orientation_guessed: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
}

/** Farm-wide settings shared by every process on the database (sql/0005_settings.sql). */
export interface SettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

/** A change of a render's status or progress (sql/0006_job_events.sql; written by a trigger). */
export interface RenderEventsTable {
  /** bigserial: pg returns it as a string */
  id: ColumnType<string, never, never>;
  render_id: string;
  kind: 'status' | 'progress';
  status: RenderStatus;
  progress: number;
  created_at: Timestamp;
}

/** A customer's webhook endpoint (sql/0007_webhooks.sql). */
export interface WebhooksTable {
  id: Generated<string>;
  customer_id: string;
  url: string;
  secret: string;
  created_at: Timestamp;
  disabled_at: Date | null;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one webhook; rows are written by a trigger when a render ends. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  job_id: string;
  event: 'job.completed' | 'job.error';
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  response_status: number | null;
  last_error: string | null;
  created_at: Timestamp;
  last_attempt_at: Date | null;
  finished_at: Date | null;
}

/** Job ids row retention deleted, so a poll says `job_expired` rather than `job_not_found` (sql/0013). */
export interface ExpiredJobsTable {
  id: string;
  customer_id: string;
  expired_at: Timestamp;
}

/** The store's running totals and what retention removed, one row (sql/0013; bigint columns read as strings). */
export interface StoreUsageTable {
  id: ColumnType<boolean, never, never>;
  render_bytes: ColumnType<string, never, number | string>;
  render_count: ColumnType<string, never, number | string>;
  swept_renders: ColumnType<string, never, number | string>;
  swept_bytes: ColumnType<string, never, number | string>;
  rows_deleted: ColumnType<string, never, number | string>;
  last_sweep_at: Date | null;
}

/** One console sign-in (sql/0015_console.sql): the cookie names it; sign-out sets revoked_at. */
export interface ConsoleSessionsTable {
  id: Generated<string>;
  key_id: string;
  created_at: Timestamp;
  expires_at: Date | string;
  revoked_at: Date | null;
}

export interface Database {
  settings: SettingsTable;
  render_events: RenderEventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  pregenerated: PregeneratedTable;
  part_models: PartModelsTable;
  /** view: each part's newest unretired part_models row (sql/0010) */
  current_part_models: PartModelsTable;
  renders: RendersTable;
  jobs: JobsTable;
  workers: WorkersTable;
  render_chunks: RenderChunksTable;
  customers: CustomersTable;
  api_keys: ApiKeysTable;
  parts: PartsTable;
  builds: BuildsTable;
  schema_migrations: SchemaMigrationsTable;
  expired_jobs: ExpiredJobsTable;
  store_usage: StoreUsageTable;
  console_sessions: ConsoleSessionsTable;
}
