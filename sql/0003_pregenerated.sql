-- Pregenerated cache behind POST /render-build-experimental, filled by `render-farm pregen`.
-- One row per visible-part combination and pixel-changing options (src/pregen/combination.ts).
-- A row is inserted only after its artifact is stored, so a row always points at whole bytes.
CREATE TABLE pregenerated (
  combination_key  text PRIMARY KEY CHECK (combination_key ~ '^[0-9a-f]{64}$'),
  format           text NOT NULL CHECK (format IN ('video', 'sprite')),
  -- frame size actually rendered (a sprite's frame, not the sheet)
  width            integer NOT NULL,
  height           integer NOT NULL,
  profile          text NOT NULL,
  -- the pixel-changing resolved options the key was computed from
  options          jsonb NOT NULL,
  -- the parts rendered (category -> IDs) and the visible signature that keyed them
  parts            jsonb NOT NULL,
  visible          jsonb NOT NULL,
  artifact_key     text NOT NULL,
  content_type     text NOT NULL,
  bytes            bigint NOT NULL,
  -- code that drew the pixels: a newer renderer leaves the entry servable but "stale"
  renderer_version text NOT NULL,
  render_ms        integer,
  frames_per_second real,
  -- where the combination came from: build:<code>, matrix, file:<name>
  source           text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pregenerated_created ON pregenerated (created_at);
