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
