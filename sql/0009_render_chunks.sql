-- Frame-range chunks (docs/operating.md): a large render is split into chunks that any worker renders,
-- then one assemble task joins them (src/jobs/render-lifecycle.ts owns every transition).
-- renders.chunk_total, chunks_done: what the job object reports as chunks {total, done}.
-- renders.chunk_plan: the current split (a new uuid each time the render is planned, so chunk
-- jobs of an older attempt find themselves superseded and stop); NULL: rendered in one task.
-- render_chunks.pieces: artifact-store keys of the chunk's temporary results (H.264 segments,
-- sprite rows, the hero still), written when the chunk is claimed (before any upload), deleted
-- after assembly and swept once no render will assemble them (rows of an older plan go then).
-- workers.speed: the worker's own measured seconds per megapixel-frame by profile, which sizes
-- chunks for the slowest live worker (src/jobs/chunk-plan.ts).
ALTER TABLE renders
  ADD COLUMN chunk_plan uuid,
  ADD COLUMN chunk_total integer,
  ADD COLUMN chunks_done integer;

CREATE TABLE render_chunks (
  render_id    uuid NOT NULL REFERENCES renders(id) ON DELETE CASCADE,
  plan         uuid NOT NULL,
  idx          integer NOT NULL,
  start_frame  integer NOT NULL,
  end_frame    integer NOT NULL,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'processing', 'done', 'error')),
  frames_done  integer NOT NULL DEFAULT 0,
  attempts     integer NOT NULL DEFAULT 0,
  worker_id    text,
  locked_by    text,
  pieces       jsonb,
  render_ms    integer,
  backend      text,
  error        text,
  started_at   timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (render_id, plan, idx)
);
CREATE INDEX render_chunks_worker ON render_chunks (worker_id) WHERE status = 'processing';
CREATE INDEX render_chunks_pieces ON render_chunks (updated_at) WHERE pieces IS NOT NULL;

ALTER TABLE workers ADD COLUMN speed jsonb;
