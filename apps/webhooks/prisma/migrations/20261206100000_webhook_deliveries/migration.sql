-- One notification for one endpoint, and every attempt to deliver it (decision 0053). The
-- schedule is durable: a delivery is due when `next_attempt_at` passes, and a dispatcher that
-- claims it moves `next_attempt_at` past its attempt's deadline first, so a dispatcher that dies
-- mid-attempt leaves the delivery due again, never lost.
CREATE TABLE webhook_deliveries (
  id              TEXT COLLATE "C" PRIMARY KEY,
  account_id      TEXT NOT NULL,
  mode            TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  endpoint_id     TEXT NOT NULL,
  notification_id TEXT NOT NULL REFERENCES notifications (id),
  type            TEXT NOT NULL,
  -- pending (an attempt is due or will be), succeeded, failed (every attempt of the schedule
  -- failed), canceled (its endpoint was deleted or disabled before it succeeded).
  status          TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
  attempt_count   INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ(3),
  last_attempt_at TIMESTAMPTZ(3),
  created_at      TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at      TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  UNIQUE (endpoint_id, notification_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_account_id_mode_id_idx ON webhook_deliveries (account_id, mode, id DESC);

CREATE TABLE webhook_attempts (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at  TIMESTAMPTZ(3) NOT NULL,
  -- NULL when no answer came (timeout, refused connection, forbidden destination).
  http_status   INTEGER,
  latency_ms    INTEGER NOT NULL,
  succeeded     BOOLEAN NOT NULL,
  error         TEXT,
  -- The answer's first kilobyte.
  response_body TEXT
);
CREATE INDEX webhook_attempts_delivery_id_idx ON webhook_attempts (delivery_id, id);

-- Since when every attempt to the endpoint has failed; NULL after a success. An endpoint failing
-- for WEBHOOK_DISABLE_AFTER_MS is disabled with reason 'failing'.
ALTER TABLE webhook_endpoints ADD COLUMN failing_since TIMESTAMPTZ(3);

-- The notification row is the consumer's inbox: its source event id is unique.
DROP TABLE inbox_messages;
