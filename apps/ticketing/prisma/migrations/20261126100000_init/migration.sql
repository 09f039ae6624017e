-- Ticketing's own database: customers (ticket holders), issuances and the tickets they create.

-- A ticket holder of one account and mode, found again by email (stored lower case).
CREATE TABLE customers (
  id         TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  email      TEXT NOT NULL CHECK (email = lower(email)),
  name       TEXT,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT customers_email_unique UNIQUE (account_id, mode, email)
);

-- One request for tickets (a sale or comps), driven step by step (decision 0030): pending until
-- its units are sold in catalog (reservation id = issuance id) and its tickets exist, then
-- issued; refused when catalog would not take the units. A pending one left behind by a crash
-- is driven again by the re-driver.
CREATE TABLE issuances (
  id                TEXT COLLATE "C" PRIMARY KEY,
  account_id        TEXT NOT NULL,
  mode              TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id          TEXT NOT NULL,
  tier_id           TEXT NOT NULL,
  customer_id       TEXT COLLATE "C" NOT NULL REFERENCES customers (id),
  kind              TEXT NOT NULL CHECK (kind IN ('sale', 'comp')),
  quantity          INTEGER NOT NULL CHECK (quantity >= 1),
  -- A sale's payment as the caller declared it; a comp has none.
  payment_type      TEXT CHECK (payment_type IN ('external')),
  payment_reference TEXT,
  amount            BIGINT NOT NULL CHECK (amount >= 0),
  currency          TEXT NOT NULL,
  comp_reason       TEXT,
  metadata          JSONB NOT NULL DEFAULT '{}',
  status            TEXT NOT NULL CHECK (status IN ('pending', 'issued', 'refused')),
  refusal           JSONB,
  created_at        TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at        TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT issuances_kind_fields CHECK ((kind = 'sale') = (payment_type IS NOT NULL) AND (kind = 'comp') = (comp_reason IS NOT NULL))
);
CREATE INDEX issuances_pending_idx ON issuances (updated_at) WHERE status = 'pending';

-- A ticket: one unit of a tier, held by a customer. (issuance_id, position) makes creating an
-- issuance's tickets repeatable: a second attempt cannot add more.
CREATE TABLE tickets (
  id          TEXT COLLATE "C" PRIMARY KEY,
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  event_id    TEXT NOT NULL,
  tier_id     TEXT NOT NULL,
  issuance_id TEXT COLLATE "C" NOT NULL REFERENCES issuances (id),
  position    INTEGER NOT NULL CHECK (position >= 1),
  customer_id TEXT COLLATE "C" NOT NULL REFERENCES customers (id),
  status      TEXT NOT NULL CHECK (status IN ('valid', 'checked_in', 'refunded', 'revoked', 'canceled')),
  -- What the holder paid for this ticket, in minor units of currency (0 for a comp).
  price       BIGINT NOT NULL CHECK (price >= 0),
  currency    TEXT NOT NULL,
  created_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT tickets_issuance_position_unique UNIQUE (issuance_id, position)
);
CREATE INDEX tickets_account_id_mode_id_idx ON tickets (account_id, mode, id DESC);
CREATE INDEX tickets_event_id_idx ON tickets (account_id, mode, event_id, id DESC);

-- Results of writes made under a client's Idempotency-Key, committed with the write itself
-- (libs/db idempotent-writes.ts owns this table; docs/decisions/0025).
CREATE TABLE idempotency_keys (
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL,
  operation   TEXT NOT NULL,
  key_hash    TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result      BYTEA,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, mode, operation, key_hash)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

-- Transactional outbox (libs/kafka), with the relay's lease (decision 0019) and the trigger
-- that wakes the relay at commit (decision 0028).
CREATE TABLE outbox_messages (
  position      BIGSERIAL PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  topic         TEXT NOT NULL,
  message_key   TEXT NOT NULL,
  payload       JSONB NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
  published_at  TIMESTAMPTZ,
  claimed_by    TEXT,
  claimed_until TIMESTAMPTZ
);
CREATE INDEX outbox_messages_unpublished ON outbox_messages (position) WHERE published_at IS NULL;

CREATE FUNCTION notify_outbox_relay() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_messages', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER outbox_messages_notify AFTER INSERT ON outbox_messages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_relay();
