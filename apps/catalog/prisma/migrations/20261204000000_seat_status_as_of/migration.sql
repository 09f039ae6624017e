-- Each seat's status now carries when ticketing published it, and a seat made available again
-- keeps its row: a late or replayed message older than the seat's last change (a dead letter
-- replayed after the seat was released, say) is ignored instead of holding the seat on the map
-- for good (decision 0014). Rows from before carry no instant; any message replaces them.
ALTER TABLE seat_statuses ADD COLUMN status_as_of TIMESTAMPTZ(3);
ALTER TABLE seat_statuses DROP CONSTRAINT seat_statuses_status_check;
ALTER TABLE seat_statuses ADD CONSTRAINT seat_statuses_status_check CHECK (status IN ('held', 'sold', 'available'));
