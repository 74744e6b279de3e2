-- Admin API keys (docs/api.md, "Auth"): only keys created with `render-farm keys create --admin` carry the
-- models:write scope (PUT/DELETE /models). Existing keys stay customer keys.
ALTER TABLE api_keys ADD COLUMN admin boolean NOT NULL DEFAULT false;
