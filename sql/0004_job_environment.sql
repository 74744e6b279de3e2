-- Jobs belong to the environment of the credential that submitted them, and are read only
-- with a credential of that environment (a staging key must not see the customer's prod jobs).
-- Renders stay shared. Existing jobs were all submitted in prod (renders run only there).
ALTER TABLE jobs ADD COLUMN environment text NOT NULL DEFAULT 'prod' CHECK (environment IN ('prod', 'staging'));
ALTER TABLE jobs DROP CONSTRAINT jobs_customer_id_render_id_key;
ALTER TABLE jobs ADD CONSTRAINT jobs_customer_environment_render_key UNIQUE (customer_id, environment, render_id);
