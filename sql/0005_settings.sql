-- Farm-wide settings every process on this database shares, created once (insert-if-absent).
-- 'signing_secret': the HS256 secret of session tokens when RENDER_FARM_SIGNING_SECRET is not
-- set, so that every serve on the database accepts the tokens of every other (src/auth/signing-secret.ts).
CREATE TABLE settings (
  key        text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
