-- Upgrades (decision 0032): a ticket moves to a higher-rank tier. Its unit is then sold under the
-- upgrade's reservation, so a ticket keeps the reservation its unit was sold under (its
-- issuance until an upgrade). While an upgrade is under way the ticket names it
-- (pending_change_id), and no other change of the ticket can slip in between.
ALTER TABLE tickets
  ADD COLUMN reservation_id TEXT COLLATE "C",
  ADD COLUMN pending_change_id TEXT COLLATE "C";
UPDATE tickets SET reservation_id = issuance_id;
ALTER TABLE tickets ALTER COLUMN reservation_id SET NOT NULL;

-- An upgrade is recorded pending before its new unit is committed in catalog, like an issuance
-- (0030), and a re-driver finishes one a crash left behind.
ALTER TABLE ticket_changes
  DROP CONSTRAINT ticket_changes_kind_check,
  ADD CONSTRAINT ticket_changes_kind_check CHECK (kind IN ('transfer', 'refund', 'revoke', 'cancel', 'upgrade')),
  ADD COLUMN from_tier_id TEXT,
  ADD COLUMN to_tier_id TEXT,
  ADD COLUMN amount BIGINT CHECK (amount >= 0),
  ADD COLUMN payment_reference TEXT,
  ADD COLUMN state TEXT NOT NULL DEFAULT 'done' CHECK (state IN ('pending', 'done', 'refused')),
  ADD COLUMN refusal JSONB,
  ADD COLUMN updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT now();
CREATE INDEX ticket_changes_pending_idx ON ticket_changes (updated_at) WHERE state = 'pending';
