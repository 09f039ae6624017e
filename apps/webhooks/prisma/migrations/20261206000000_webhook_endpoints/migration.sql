-- Where an account's events are delivered (decision 0052). The signing secrets are sealed with
-- the service's WEBHOOK_SECRETS_KEY (AES-256-GCM): the table alone cannot sign a delivery.
CREATE TABLE webhook_endpoints (
  id                         TEXT COLLATE "C" PRIMARY KEY,
  account_id                 TEXT NOT NULL,
  mode                       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  url                        TEXT NOT NULL,
  enabled_events             TEXT[] NOT NULL CHECK (cardinality(enabled_events) > 0),
  description                TEXT,
  metadata                   JSONB NOT NULL DEFAULT '{}',
  -- NULL while enabled; 'by_request' or 'failing'.
  disabled_reason            TEXT CHECK (disabled_reason IN ('by_request', 'failing')),
  sealed_secret              TEXT NOT NULL,
  -- The secret a rotation replaced, signing beside the new one until it expires.
  sealed_previous_secret     TEXT,
  previous_secret_expires_at TIMESTAMPTZ(3),
  created_at                 TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at                 TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK ((sealed_previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
);
CREATE INDEX webhook_endpoints_account_id_mode_id_idx ON webhook_endpoints (account_id, mode, id DESC);

-- A deleted endpoint leaves its id behind, so it still marks its place as a list cursor
-- (decision 0049).
CREATE TABLE deleted_webhook_endpoints (
  id         TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL,
  deleted_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- Results of writes made under a client's Idempotency-Key, committed with the write itself
-- (libs/db idempotent-writes.ts owns this table; docs/decisions/0025).
CREATE TABLE idempotency_keys (
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL,
  operation   TEXT NOT NULL,
  key_hash    TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result      BYTEA,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, mode, operation, key_hash)
);
