-- What happened to each ticket after it was issued (decision 0032), kept as its history. A change
-- that takes the ticket out of its tier's count (a refund, a revocation) names the reservation
-- its unit was sold under; catalog is asked to give the unit back, returned_at is set once it
-- has, and until then the re-driver asks again (return_attempted_at orders its queue).
CREATE TABLE ticket_changes (
  id                  TEXT COLLATE "C" PRIMARY KEY,
  account_id          TEXT NOT NULL,
  mode                TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  ticket_id           TEXT COLLATE "C" NOT NULL REFERENCES tickets (id),
  kind                TEXT NOT NULL CHECK (kind IN ('transfer', 'refund', 'revoke')),
  -- The code version the change made (a transfer) or found (the others).
  code_version        INTEGER NOT NULL,
  from_customer_id    TEXT COLLATE "C" NOT NULL REFERENCES customers (id),
  to_customer_id      TEXT COLLATE "C" NOT NULL REFERENCES customers (id),
  reason              TEXT,
  return_reservation_id TEXT COLLATE "C",
  return_attempted_at TIMESTAMPTZ(3),
  returned_at         TIMESTAMPTZ(3),
  created_at          TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT ticket_changes_return_complete CHECK (return_reservation_id IS NOT NULL OR (return_attempted_at IS NULL AND returned_at IS NULL))
);
CREATE INDEX ticket_changes_ticket_id_idx ON ticket_changes (ticket_id, id);
-- The re-driver's queue: units not yet given back, oldest attempt first.
CREATE INDEX ticket_changes_pending_return_idx ON ticket_changes (return_attempted_at) WHERE return_reservation_id IS NOT NULL AND returned_at IS NULL;
