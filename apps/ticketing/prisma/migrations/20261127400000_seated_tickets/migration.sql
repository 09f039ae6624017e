-- Tickets of seated tiers are issued from a seat hold (decision 0033): the issuance names the
-- hold, which is bound to it while it is pending (the sweeper leaves a bound hold alone) and
-- `sold` once its tickets exist. A sold seat keeps its claim row, now naming its ticket, so the
-- primary key of seat_claims goes on refusing a second hold or sale of it.
ALTER TABLE issuances ADD COLUMN seat_hold_id TEXT COLLATE "C";

ALTER TABLE seat_holds
  ADD COLUMN issuance_id TEXT COLLATE "C" REFERENCES issuances (id),
  DROP CONSTRAINT seat_holds_status_check,
  ADD CONSTRAINT seat_holds_status_check CHECK (status IN ('active', 'released', 'expired', 'sold')),
  DROP CONSTRAINT seat_holds_released_when_inactive,
  ADD CONSTRAINT seat_holds_released_when_ended CHECK ((status IN ('released', 'expired')) = (released_at IS NOT NULL));
CREATE UNIQUE INDEX seat_holds_issuance_id_idx ON seat_holds (issuance_id);

ALTER TABLE seat_claims ADD COLUMN ticket_id TEXT COLLATE "C" REFERENCES tickets (id);

ALTER TABLE tickets ADD COLUMN seat_id TEXT;
