-- Worker detail and drain (the console's worker page, `workers show|drain`).
-- What each worker's heartbeat reports besides being alive: its package and renderer versions
-- (at registration), its memory, how many queue jobs it finished and how many failed, and its
-- last error. Times are the database's clock, as every other stamp on this table.
ALTER TABLE workers
  ADD COLUMN version text,
  ADD COLUMN renderer_version text,
  ADD COLUMN memory_rss bigint,
  ADD COLUMN memory_heap bigint,
  ADD COLUMN jobs_done integer NOT NULL DEFAULT 0,
  ADD COLUMN jobs_failed integer NOT NULL DEFAULT 0,
  ADD COLUMN last_error text,
  ADD COLUMN last_error_at timestamptz,
  -- Workers listen on no port: a drain is asked for here, and the worker's next heartbeat reads
  -- it, stops taking jobs, finishes the running ones and exits as on SIGTERM.
  ADD COLUMN drain_requested_at timestamptz;
