-- Fencing (docs/design-decisions.md): a worker taken for dead may come back and write to a render or chunk that
-- another worker has claimed since. Every claim (claimRender, claimChunk) sets a fresh `claim`
-- token; every later write by a worker (progress, complete, requeue, fail, split) matches the
-- holder's worker_id AND this token, so a stale holder's write changes nothing
-- (src/jobs/render-lifecycle.ts). A release (dead or drained worker) keeps the token: until
-- another worker claims the row, the old holder's result is as good as anyone's. A reopen clears it.
ALTER TABLE renders ADD COLUMN claim uuid;
ALTER TABLE render_chunks ADD COLUMN claim uuid;
