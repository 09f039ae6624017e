-- When catalog published what the copy of each event says: a late or replayed message older than
-- the copy's (a waiting room's "enabled" replayed after it was turned off, say) changes nothing
-- (decision 0034). Rows from before carry no instant; any message replaces them.
ALTER TABLE event_settings ADD COLUMN settings_as_of TIMESTAMPTZ(3);
