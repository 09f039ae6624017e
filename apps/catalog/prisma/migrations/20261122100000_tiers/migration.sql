-- Money is an integer in minor units of the event's currency (ISO 4217, upper case).
ALTER TABLE events ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$');

-- A tier is also the unit of inventory: capacity, held and sold live in one row so that
-- "never oversell" and "capacity never below held + sold" are single conditional updates.
CREATE TABLE tiers (
  id             TEXT COLLATE "C" PRIMARY KEY,
  account_id     TEXT NOT NULL,
  mode           TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id       TEXT COLLATE "C" NOT NULL REFERENCES events (id),
  name           TEXT NOT NULL,
  price          BIGINT NOT NULL CHECK (price >= 0),
  capacity       INTEGER NOT NULL CHECK (capacity >= 0),
  held           INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
  sold           INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0),
  sales_start_at TIMESTAMPTZ(3),
  sales_end_at   TIMESTAMPTZ(3),
  min_per_order  INTEGER NOT NULL DEFAULT 1 CHECK (min_per_order >= 1),
  max_per_order  INTEGER CHECK (max_per_order IS NULL OR max_per_order >= min_per_order),
  seated         BOOLEAN NOT NULL DEFAULT false,
  rank           INTEGER NOT NULL DEFAULT 0,
  created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at     TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT tiers_never_oversold CHECK (held + sold <= capacity),
  CONSTRAINT tiers_sales_window CHECK (sales_end_at IS NULL OR sales_start_at IS NULL OR sales_end_at > sales_start_at)
);
CREATE INDEX tiers_event_id_idx ON tiers (event_id, id);
CREATE INDEX tiers_account_id_mode_id_idx ON tiers (account_id, mode, id DESC);
