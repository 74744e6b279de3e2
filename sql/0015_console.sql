-- Web console (docs/console.md).
-- api_keys.console: keys created with `render-farm keys create --console` may sign in to the
-- console (/console); admin keys may too. Existing keys stay API-only.
ALTER TABLE api_keys ADD COLUMN console boolean NOT NULL DEFAULT false;

-- One row per console sign-in. The cookie carries the id, its expiry and an HMAC of both (the
-- signing secret), so a forged or altered cookie is refused without a read; this row is what
-- makes sign-out (revoked_at) and key revocation end the session on every serve process.
-- Rows past expires_at are useless and deleted by the next sign-in (few rows: people sign in).
CREATE TABLE console_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX console_sessions_expires ON console_sessions (expires_at);
