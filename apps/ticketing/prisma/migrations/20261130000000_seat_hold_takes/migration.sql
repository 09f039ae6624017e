-- An issuance takes a seat hold before it holds units for the hold's seats (decision 0033), so
-- that of concurrent issuances naming one hold only one holds units. `issuance_id` (a foreign
-- key) names the issuance only once it is recorded; until then the hold is `taken_by` it.
ALTER TABLE seat_holds ADD COLUMN taken_by TEXT COLLATE "C";
