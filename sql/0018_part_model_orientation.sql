-- Part models v2 (docs/part-models.md): the rotation and units preparation found (or was told) and applied,
-- so `models show` and GET /models/:partId can say how each version was placed. NULL on rows
-- stored before: those were taken as authored (metres, +Y up, front +Z), scaled only by --fit.
ALTER TABLE part_models
  -- `none`, `+90 deg about Y`, `-90 deg about X, then 180 deg about Y`
  ADD COLUMN rotation text,
  -- what one unit of the file was: m, cm, mm, in
  ADD COLUMN units text CHECK (units IN ('m', 'cm', 'mm', 'in')),
  -- the file's axes that became up (+Y) and front (+Z): +x, -x, +y, -y, +z, -z
  ADD COLUMN up_axis text CHECK (up_axis ~ '^[+-][xyz]$'),
  ADD COLUMN front_axis text CHECK (front_axis ~ '^[+-][xyz]$'),
  -- which way the front faces was a guess (nothing in the file or the request told it)
  ADD COLUMN orientation_guessed boolean;

-- the view's * was expanded when it was made: new columns reach it only when it is made again
-- (OR REPLACE may add columns at the end, which is where ALTER TABLE put them)
CREATE OR REPLACE VIEW current_part_models AS
  SELECT DISTINCT ON (part_id) * FROM part_models
  WHERE retired_at IS NULL
  ORDER BY part_id, id DESC;
