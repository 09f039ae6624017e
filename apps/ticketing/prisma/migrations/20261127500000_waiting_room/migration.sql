-- Messages this service's consumers have applied (libs/kafka inbox.ts owns this table).
CREATE TABLE inbox_messages (
  consumer     TEXT NOT NULL,
  message_id   TEXT NOT NULL,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
);

-- What ticketing knows of catalog's events, kept from catalog.event.v1 (decision 0034): whether
-- issuance for the event goes through its waiting room, and at what rate entries are admitted.
CREATE TABLE event_settings (
  event_id                  TEXT COLLATE "C" PRIMARY KEY,
  account_id                TEXT NOT NULL,
  mode                      TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  status                    TEXT NOT NULL,
  waiting_room_enabled      BOOLEAN NOT NULL,
  admission_rate_per_minute INTEGER CHECK (admission_rate_per_minute > 0),
  updated_at                TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- A waiting-room entry admits one issuance: the database, not a cache, refuses a second use of
-- its admission token.
ALTER TABLE issuances ADD COLUMN admission_entry_id TEXT COLLATE "C";
CREATE UNIQUE INDEX issuances_admission_entry_id_idx ON issuances (admission_entry_id);
