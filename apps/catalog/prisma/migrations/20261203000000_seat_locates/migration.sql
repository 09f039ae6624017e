-- Seats a seat hold asked catalog to locate, and when. A hold commits in ticketing after catalog
-- located its seats, and catalog hears of it (seat.held) only a moment later; a seat map PUT in
-- between saw the seat available and could drop it, or move it to another tier, under the hold.
-- A PUT now refuses to drop or move a seat located within the last minute (decision 0014).
CREATE TABLE seat_locates (
  event_id   TEXT COLLATE "C" NOT NULL REFERENCES events (id),
  seat_id    TEXT NOT NULL,
  located_at TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY (event_id, seat_id)
);
