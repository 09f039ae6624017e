-- The organizers an account sells for.
CREATE TABLE organizations (
  id            TEXT COLLATE "C" PRIMARY KEY,
  account_id    TEXT NOT NULL,
  mode          TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  name          TEXT NOT NULL,
  description   TEXT,
  website       TEXT,
  contact_email TEXT,
  created_at    TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at    TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX organizations_account_id_mode_id_idx ON organizations (account_id, mode, id DESC);

-- The full event: details, venue, lifecycle status and waiting-room settings.
ALTER TABLE events
  ADD COLUMN description     TEXT,
  ADD COLUMN organization_id TEXT COLLATE "C" REFERENCES organizations (id),
  ADD COLUMN venue_name      TEXT,
  ADD COLUMN venue_address   TEXT,
  ADD COLUMN venue_city      TEXT,
  ADD COLUMN venue_country   TEXT CHECK (venue_country ~ '^[A-Z]{2}$'),
  ADD COLUMN venue_timezone  TEXT,
  ADD COLUMN ends_at         TIMESTAMPTZ(3),
  ADD COLUMN category        TEXT,
  ADD COLUMN tags            TEXT[] NOT NULL DEFAULT '{}',
  ADD COLUMN status          TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'canceled', 'completed')),
  ADD COLUMN waiting_room_enabled BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN waiting_room_admission_rate_per_minute INTEGER CHECK (waiting_room_admission_rate_per_minute > 0),
  ADD CONSTRAINT events_ends_after_start CHECK (ends_at IS NULL OR ends_at > starts_at),
  ADD CONSTRAINT events_venue_named CHECK (venue_name IS NOT NULL OR (venue_address IS NULL AND venue_city IS NULL AND venue_country IS NULL AND venue_timezone IS NULL));
CREATE INDEX events_account_id_mode_organization_id_id_idx ON events (account_id, mode, organization_id, id DESC);
CREATE INDEX events_account_id_mode_status_starts_at_idx ON events (account_id, mode, status, starts_at);

-- An event's layout, replaced whole: sections → rows → seats, each seat mapped to a seated tier.
CREATE TABLE seat_maps (
  event_id   TEXT COLLATE "C" PRIMARY KEY REFERENCES events (id),
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  layout     JSONB NOT NULL,
  seat_count INTEGER NOT NULL CHECK (seat_count >= 0),
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ(3) NOT NULL
);

-- Seats that are not available, as ticketing last published them; a missing row is available.
-- Kept apart from the layout so a status that arrives before (or across) a layout change is kept.
CREATE TABLE seat_statuses (
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id   TEXT COLLATE "C" NOT NULL,
  seat_id    TEXT NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('held', 'sold')),
  updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, seat_id)
);

-- Consumer inbox (libs/kafka recordFirstDelivery).
CREATE TABLE inbox_messages (
  consumer     TEXT NOT NULL,
  message_id   TEXT NOT NULL,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, message_id)
);
