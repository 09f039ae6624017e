-- Every ticket carries a scannable code (decision 0031), signed by ticketing when the ticket is
-- issued and signed again, under a higher code_version, whenever its holder or tier changes.
-- The code cannot be made in SQL, so this refuses to run over tickets issued before it (only
-- development databases had any) instead of leaving tickets that cannot be scanned.
ALTER TABLE tickets
  ADD COLUMN code_version INTEGER NOT NULL DEFAULT 1 CHECK (code_version >= 1),
  ADD COLUMN code         TEXT NOT NULL;
