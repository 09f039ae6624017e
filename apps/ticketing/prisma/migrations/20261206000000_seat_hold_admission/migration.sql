-- A sale's seat hold made through a waiting room names the admission it was made with (decision
-- 0034): only that admission sells it, and one admission holds seats in one active hold at a
-- time, so a buyer let through once cannot hold the whole seat map in hold after hold.
ALTER TABLE seat_holds ADD COLUMN admission_entry_id TEXT COLLATE "C";
CREATE UNIQUE INDEX seat_holds_active_admission_idx ON seat_holds (admission_entry_id) WHERE status = 'active';
