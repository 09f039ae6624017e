-- A canceled event cancels its valid tickets (decision 0032), kept in their history as `cancel`.
ALTER TABLE ticket_changes
  DROP CONSTRAINT ticket_changes_kind_check,
  ADD CONSTRAINT ticket_changes_kind_check CHECK (kind IN ('transfer', 'refund', 'revoke', 'cancel'));
