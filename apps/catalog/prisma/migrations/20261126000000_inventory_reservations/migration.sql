-- Units of a tier taken for a buyer before the sale completes (decision 0029). A reservation is
-- held until committed (its units become sold) or released (they return to the tier), by its
-- caller or, once expires_at passes, by the sweeper. Its id is chosen by the caller, so retrying
-- a call with the same id finds the reservation instead of taking the units twice.
CREATE TABLE inventory_reservations (
  id           TEXT COLLATE "C" PRIMARY KEY,
  account_id   TEXT NOT NULL,
  mode         TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id     TEXT COLLATE "C" NOT NULL REFERENCES events (id),
  tier_id      TEXT COLLATE "C" NOT NULL REFERENCES tiers (id),
  kind         TEXT NOT NULL CHECK (kind IN ('sale', 'comp')),
  quantity     INTEGER NOT NULL CHECK (quantity >= 1),
  status       TEXT NOT NULL CHECK (status IN ('held', 'committed', 'released')),
  expires_at   TIMESTAMPTZ(3) NOT NULL,
  created_at   TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  committed_at TIMESTAMPTZ(3),
  released_at  TIMESTAMPTZ(3),
  CONSTRAINT inventory_reservations_settled_once CHECK (committed_at IS NULL OR released_at IS NULL)
);
-- The sweeper's scan: held reservations by expiry, and nothing else.
CREATE INDEX inventory_reservations_expiry_idx ON inventory_reservations (expires_at) WHERE status = 'held';
CREATE INDEX inventory_reservations_tier_id_idx ON inventory_reservations (tier_id);
