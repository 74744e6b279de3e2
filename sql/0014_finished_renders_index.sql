-- docs/benchmarks.md, bench:control-plane: with 1M renders, `top`'s snapshot took 2.4 s (measured), most
-- of it three sequential scans of renders: the recent finished renders (finished in the last
-- day, newest first) and the error counts of the last hour and day. Finished renders are
-- nearly all of the table, so these partial indexes on finish time turn each into a range scan
-- of the period asked for. (CREATE INDEX on a large renders table blocks writes to it for a few
-- seconds while it builds: apply this migration in a quiet moment.)
CREATE INDEX renders_finished ON renders (finished_at) WHERE status IN ('completed', 'error');
CREATE INDEX renders_failed ON renders (finished_at) WHERE status = 'error';
