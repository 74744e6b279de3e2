-- Searching jobs by share code (`jobs list --search`, the console's jobs search): codes match
-- whatever their case, so the index is on upper(share_code). Id prefixes need none: they are
-- searched as a range of the primary key (src/jobs/job-search.ts).
CREATE INDEX jobs_share_code_upper ON jobs (upper(share_code)) WHERE share_code IS NOT NULL;
