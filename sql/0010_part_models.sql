-- Part models (docs/part-models.md): artists' glTF models that replace a part's procedural model.
-- One row per model a part was given; the prepared GLB lives in the artifact store under
-- models/<sha256>.glb (content-addressed, so equal models share one object). The part's
-- *current* model is its newest row with retired_at NULL: replacing inserts a row and keeps the
-- previous one as history; `models rollback` retires the current row (the previous becomes
-- current); `models rm` retires every row. Rows are never updated otherwise.
CREATE TABLE part_models (
  id                 bigserial PRIMARY KEY,
  part_id            text NOT NULL REFERENCES parts(id) ON DELETE CASCADE,
  sha256             text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  -- the artist's file name, and sizes before and after preparation
  original_name      text,
  original_bytes     bigint,
  prepared_bytes     bigint,
  triangles          integer,
  original_triangles integer,
  -- the factor --fit applied (1 when the model was already to size)
  scale              real,
  created_by         text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  retired_at         timestamptz
);
-- the current model of a part (and its history, newest first) is one index range
CREATE INDEX part_models_part ON part_models (part_id, id DESC);

-- the one definition of "a part's current model": every reader (the render's parts query, the
-- library, the part listings, pregen's staleness check) selects from this view. A filter on
-- part_id is pushed into the DISTINCT ON and served by the index above.
CREATE VIEW current_part_models AS
  SELECT DISTINCT ON (part_id) * FROM part_models
  WHERE retired_at IS NULL
  ORDER BY part_id, id DESC;

-- renders.models: part ID -> model sha256 the cache key was computed with (as part_versions),
-- so a worker that finds another model for a part fails the render saying so instead of
-- taking it for a rolling deploy. NULL: no part of the build had a model.
ALTER TABLE renders ADD COLUMN models jsonb;
