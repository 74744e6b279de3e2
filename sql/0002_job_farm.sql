-- Job farm: content-addressed renders (shared), per-customer jobs, worker heartbeats.

-- One row per distinct render (cache key); the unique key is what stops a render being done
-- twice (graphile-worker's job_key alone re-queues a key whose job is running).
CREATE TABLE renders (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cache_key         text NOT NULL UNIQUE,
  status            text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'completed', 'error')),
  format            text NOT NULL CHECK (format IN ('video', 'sprite')),
  -- the normalised request: part IDs, saved state, resolved options
  request           jsonb NOT NULL,
  progress          real NOT NULL DEFAULT 0,
  artifacts         jsonb,
  sprite_layout     jsonb,
  error             text,
  attempts          integer NOT NULL DEFAULT 0,
  worker_id         text,
  locked_by         text,
  backend           text,
  frames_per_second real,
  render_ms         integer,
  created_at        timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  finished_at       timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX renders_active ON renders (status) WHERE status IN ('queued', 'processing');

-- What a customer polls. Renders are shared; each customer gets its own job id for one.
CREATE TABLE jobs (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  render_id   uuid NOT NULL REFERENCES renders(id) ON DELETE CASCADE,
  share_code  text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, render_id)
);
CREATE INDEX jobs_render ON jobs (render_id);

-- Worker processes: heartbeats let the sweeper free a dead worker's jobs within seconds.
CREATE TABLE workers (
  id            text PRIMARY KEY,
  hostname      text NOT NULL,
  pid           integer NOT NULL,
  concurrency   integer NOT NULL,
  graphile_ids  text[] NOT NULL DEFAULT '{}',
  backend       jsonb,
  started_at    timestamptz NOT NULL DEFAULT now(),
  last_seen     timestamptz NOT NULL DEFAULT now(),
  stopped_at    timestamptz
);
