-- Storage lifecycle (docs/operating.md): the artifact store and the tables stop growing forever.
-- src/jobs/artifact-retention.ts sweeps renders' files, src/jobs/row-retention.ts old rows; both
-- run from the `retention` queue task every few minutes (src/jobs/tasks/retention.ts).

-- renders.last_requested_at: the last submit (hit or not), job poll or /artifacts read, at most
-- a minute stale (writes are throttled). Existing rows count as requested now: nothing is swept
-- the moment this migration runs. (A constant default: PostgreSQL adds it without a rewrite.)
-- renders.artifact_bytes: the size of the render's files while they are in the store (NULL: no
-- files, or written before this migration and not measured yet; the sweep measures those).
-- renders.expired_at: when retention removed the files. The render is then `error` with a
-- message saying so: a later identical request reopens it like any failed render and renders it
-- again; `artifacts` keeps the keys until the files are deleted (a sweep that stops half-way
-- finds them on its next run).
ALTER TABLE renders
  ADD COLUMN last_requested_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN artifact_bytes bigint,
  ADD COLUMN expired_at timestamptz;
-- least recently requested completed renders first; old final renders for row retention
CREATE INDEX renders_retention ON renders (status, last_requested_at);
CREATE INDEX jobs_created ON jobs (created_at);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
CREATE INDEX render_chunks_updated ON render_chunks (updated_at);

-- Job ids are random uuids (no time in them), so a polled id that row retention deleted is told
-- apart from one that never existed by this small table (40 bytes of data a job); its own rows
-- go after RENDER_FARM_JOB_TOMBSTONE_DAYS.
CREATE TABLE expired_jobs (
  id          uuid PRIMARY KEY,
  customer_id uuid NOT NULL,
  expired_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX expired_jobs_at ON expired_jobs (expired_at);

-- One row: the store's running totals (kept by the trigger below, so /metrics, `top` and the
-- byte budget never sum a million rows) and what retention has removed so far.
CREATE TABLE store_usage (
  id             boolean PRIMARY KEY DEFAULT true CHECK (id),
  render_bytes   bigint NOT NULL DEFAULT 0,
  render_count   bigint NOT NULL DEFAULT 0,
  swept_renders  bigint NOT NULL DEFAULT 0,
  swept_bytes    bigint NOT NULL DEFAULT 0,
  rows_deleted   bigint NOT NULL DEFAULT 0,
  last_sweep_at  timestamptz
);
INSERT INTO store_usage DEFAULT VALUES;

CREATE FUNCTION render_farm_store_usage() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bytes bigint := 0;
  new_bytes bigint := 0;
  old_n integer := 0;
  new_n integer := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.artifact_bytes IS NOT NULL THEN old_bytes := OLD.artifact_bytes; old_n := 1; END IF;
  IF TG_OP <> 'DELETE' AND NEW.artifact_bytes IS NOT NULL THEN new_bytes := NEW.artifact_bytes; new_n := 1; END IF;
  IF old_bytes <> new_bytes OR old_n <> new_n THEN
    UPDATE store_usage SET render_bytes = render_bytes + new_bytes - old_bytes, render_count = render_count + new_n - old_n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER renders_store_usage AFTER INSERT OR DELETE OR UPDATE OF artifact_bytes ON renders
  FOR EACH ROW EXECUTE FUNCTION render_farm_store_usage();

-- Expiry is not a failure: the status change that sets expired_at queues no job.error webhook.
DROP TRIGGER renders_webhooks ON renders;
CREATE TRIGGER renders_webhooks AFTER UPDATE OF status ON renders
  FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'error') AND OLD.status IS DISTINCT FROM NEW.status AND NEW.expired_at IS NOT DISTINCT FROM OLD.expired_at)
  EXECUTE FUNCTION render_farm_queue_webhooks();
