-- Ids sort by creation time only under byte order, hence COLLATE "C".
CREATE TABLE events (
  id         TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  name       TEXT NOT NULL,
  starts_at  TIMESTAMPTZ(3) NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX events_account_id_mode_id_idx ON events (account_id, mode, id DESC);

-- Transactional outbox (libs/kafka OUTBOX_TABLE_SQL).
CREATE TABLE outbox_messages (
  position     BIGSERIAL PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  topic        TEXT NOT NULL,
  message_key  TEXT NOT NULL,
  payload      JSONB NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  published_at TIMESTAMPTZ
);
CREATE INDEX outbox_messages_unpublished ON outbox_messages (position) WHERE published_at IS NULL;
