-- Foundation: customers, API keys, the parts catalog and saved builds.

CREATE TABLE customers (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 of each key is stored: keys are 32 random bytes, so a slow hash adds nothing.
CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id  uuid NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  environment  text NOT NULL CHECK (environment IN ('prod', 'staging')),
  prefix       text NOT NULL,
  key_hash     text NOT NULL UNIQUE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  last_used_at timestamptz
);
CREATE INDEX api_keys_customer ON api_keys (customer_id);

CREATE TABLE parts (
  id          text PRIMARY KEY CHECK (id ~ '^[a-z0-9]{4,32}$'),
  category    text NOT NULL,
  name        text NOT NULL,
  specs       jsonb NOT NULL,
  raw         jsonb,
  opendb_id   uuid UNIQUE,
  -- bumped when specs change, so cached renders of the part are invalidated
  version     integer NOT NULL DEFAULT 1,
  image_key   text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX parts_category_name ON parts (category, name, id);

CREATE TABLE builds (
  share_code        text PRIMARY KEY CHECK (share_code ~ '^[A-Za-z0-9_-]{3,64}$'),
  name              text NOT NULL,
  description       text NOT NULL DEFAULT '',
  parts             jsonb NOT NULL,
  interactive_state jsonb,
  created_at        timestamptz NOT NULL DEFAULT now()
);
