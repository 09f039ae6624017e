-- Ids sort by creation time only under byte order, hence COLLATE "C".
CREATE TABLE notifications (
  id              TEXT COLLATE "C" PRIMARY KEY,
  account_id      TEXT NOT NULL,
  mode            TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  source_event_id TEXT NOT NULL UNIQUE,
  type            TEXT NOT NULL,
  data            JSONB NOT NULL,
  occurred_at     TIMESTAMPTZ(3) NOT NULL,
  created_at      TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX notifications_account_id_mode_id_idx ON notifications (account_id, mode, id DESC);

-- Consumer inbox (libs/kafka recordFirstDelivery).
CREATE TABLE inbox_messages (
  consumer     TEXT NOT NULL,
  message_id   TEXT NOT NULL,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
);
