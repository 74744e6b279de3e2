-- Cost-aware admission and the worker's cache-key check (docs/design-decisions.md, "Admission by estimated cost").
-- estimated_cost_s: the admission estimate (src/jobs/cost-model.ts), summed per customer over
-- queued and processing renders for the in-flight cap and the fair queue priority.
-- part_versions, renderer_version: what the cache key was computed with, so a worker whose
-- catalog or renderer differs refuses to store pixels under that key and can say why.
-- Rows from before this migration have NULLs: they count as cost 0 and the worker recomputes their key.
ALTER TABLE renders
  ADD COLUMN estimated_cost_s real,
  ADD COLUMN part_versions jsonb,
  ADD COLUMN renderer_version text;
