-- Seat holds (decision 0033): seats of one event held all or none while a buyer checks out,
-- until released or expired (the sweeper expires them). `seats` keeps each seat with its tier.
CREATE TABLE seat_holds (
  id          TEXT COLLATE "C" PRIMARY KEY,
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id    TEXT COLLATE "C" NOT NULL,
  seats       JSONB NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('active', 'released', 'expired')),
  expires_at  TIMESTAMPTZ(3) NOT NULL,
  created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  released_at TIMESTAMPTZ(3),
  CONSTRAINT seat_holds_released_when_inactive CHECK ((status = 'active') = (released_at IS NULL))
);
-- The sweeper's scan: active holds by expiry.
CREATE INDEX seat_holds_expiry_idx ON seat_holds (expires_at) WHERE status = 'active';

-- One row per seat that is taken, by a hold (or, with issuance, a ticket). The primary key is what
-- makes holding or selling a seat twice impossible, whatever the code above it does.
CREATE TABLE seat_claims (
  event_id   TEXT COLLATE "C" NOT NULL,
  seat_id    TEXT NOT NULL,
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  tier_id    TEXT NOT NULL,
  hold_id    TEXT COLLATE "C" NOT NULL REFERENCES seat_holds (id),
  PRIMARY KEY (event_id, seat_id)
);
CREATE INDEX seat_claims_hold_id_idx ON seat_claims (hold_id);
