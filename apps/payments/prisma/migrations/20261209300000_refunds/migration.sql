-- Money given back from a payment (decision 0064): at most what is left of it, once per source
-- (the ticket change that asked for it, or the client's request).
CREATE TABLE refunds (
  id          TEXT COLLATE "C" PRIMARY KEY,
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  payment_id  TEXT NOT NULL REFERENCES payments (id),
  amount      BIGINT NOT NULL CHECK (amount > 0),
  currency    TEXT NOT NULL,
  -- pending: counted against the payment, not yet confirmed by the processor.
  status      TEXT NOT NULL CHECK (status IN ('pending', 'succeeded')),
  reason      TEXT,
  -- What asked for it (tch_… a ticket's refund); a source is refunded once.
  source_id   TEXT NOT NULL UNIQUE,
  created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX refunds_payment_id_idx ON refunds (payment_id, id);
CREATE INDEX refunds_pending ON refunds (created_at) WHERE status = 'pending';

-- The sandbox's record of what it gave back of each charge.
ALTER TABLE sandbox_charges ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0;
CREATE TABLE sandbox_refunds (
  refund_key TEXT PRIMARY KEY,
  charge_key TEXT NOT NULL REFERENCES sandbox_charges (charge_key),
  amount     BIGINT NOT NULL CHECK (amount > 0),
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
