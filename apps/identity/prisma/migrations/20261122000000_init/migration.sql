-- Ids sort by creation time only under byte order, hence COLLATE "C".
CREATE TABLE accounts (
  id                     TEXT COLLATE "C" PRIMARY KEY,
  name                   TEXT NOT NULL,
  live_mode_activated    BOOLEAN NOT NULL DEFAULT false,
  live_mode_activated_at TIMESTAMPTZ(3),
  created_at             TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- key_hash is the SHA-256 of the plaintext key, which is never stored.
CREATE TABLE api_keys (
  id         TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  kind       TEXT NOT NULL CHECK (kind IN ('secret', 'publishable')),
  prefix     TEXT NOT NULL,
  key_hash   TEXT NOT NULL,
  label      TEXT NOT NULL,
  scopes     TEXT[] NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  revoked_at TIMESTAMPTZ(3),
  CONSTRAINT api_keys_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE UNIQUE INDEX api_keys_prefix_key ON api_keys (prefix);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_account_id_mode_id_idx ON api_keys (account_id, mode, id DESC);
