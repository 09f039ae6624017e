-- Payments' own database (decision 0061). Ids sort by creation time only under byte order,
-- hence COLLATE "C".

CREATE TABLE payment_intents (
  id                  TEXT COLLATE "C" PRIMARY KEY,
  account_id          TEXT NOT NULL,
  mode                TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  amount              BIGINT NOT NULL CHECK (amount > 0),
  currency            TEXT NOT NULL,
  description         TEXT,
  metadata            JSONB NOT NULL DEFAULT '{}',
  status              TEXT NOT NULL CHECK (status IN ('requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'succeeded', 'canceled')),
  payment_method      TEXT,
  last_payment_error  JSONB,
  next_action         JSONB,
  payment_id          TEXT,
  canceled_at         TIMESTAMPTZ(3),
  cancellation_reason TEXT,
  created_at          TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at          TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX payment_intents_account_id_mode_id_idx ON payment_intents (account_id, mode, id DESC);

-- One per confirmation: the processor is asked to charge under the charge's id, so asking again
-- (a retry, the re-driver after a crash) never charges twice.
CREATE TABLE charges (
  id                TEXT COLLATE "C" PRIMARY KEY,
  account_id        TEXT NOT NULL,
  mode              TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  payment_intent_id TEXT NOT NULL REFERENCES payment_intents (id),
  amount            BIGINT NOT NULL CHECK (amount > 0),
  currency          TEXT NOT NULL,
  payment_method    TEXT NOT NULL,
  -- processing: asked, outcome not known yet; requires_action: the buyer must authenticate.
  status            TEXT NOT NULL CHECK (status IN ('processing', 'requires_action', 'succeeded', 'failed')),
  failure_code      TEXT,
  failure_message   TEXT,
  -- The confirmation's Idempotency-Key (hashed) and request fingerprint: its retries find this charge.
  idempotency_key_hash TEXT,
  idempotency_fingerprint TEXT,
  created_at        TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  settled_at        TIMESTAMPTZ(3)
);
-- At most one charge of an intent in flight, and at most one that succeeded.
CREATE UNIQUE INDEX charges_one_open_per_intent ON charges (payment_intent_id) WHERE status IN ('processing', 'requires_action');
CREATE UNIQUE INDEX charges_one_success_per_intent ON charges (payment_intent_id) WHERE status = 'succeeded';
CREATE INDEX charges_unsettled ON charges (created_at) WHERE status IN ('processing', 'requires_action');
CREATE INDEX charges_idempotency_key ON charges (payment_intent_id, idempotency_key_hash) WHERE idempotency_key_hash IS NOT NULL;

CREATE TABLE payments (
  id                TEXT COLLATE "C" PRIMARY KEY,
  account_id        TEXT NOT NULL,
  mode              TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  payment_intent_id TEXT NOT NULL UNIQUE REFERENCES payment_intents (id),
  charge_id         TEXT NOT NULL UNIQUE REFERENCES charges (id),
  amount            BIGINT NOT NULL CHECK (amount > 0),
  currency          TEXT NOT NULL,
  fee               BIGINT NOT NULL CHECK (fee >= 0 AND fee <= amount),
  amount_refunded   BIGINT NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  payment_method    TEXT NOT NULL,
  created_at        TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX payments_account_id_mode_id_idx ON payments (account_id, mode, id DESC);

-- The double-entry ledger: every movement of money is a transaction whose entries sum to zero in
-- each currency (debits positive, credits negative), checked at commit; entries are never
-- changed or removed. merchant_balance is what the platform owes the account; an entry counts in
-- the available balance from its available_at.
CREATE TABLE ledger_transactions (
  id         TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode       TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  kind       TEXT NOT NULL CHECK (kind IN ('charge', 'fee', 'refund', 'payout', 'payout_failure')),
  -- The payment, refund or payout it records: each is recorded once.
  source_id  TEXT NOT NULL,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  UNIQUE (kind, source_id)
);

CREATE TABLE ledger_entries (
  id             BIGSERIAL PRIMARY KEY,
  transaction_id TEXT NOT NULL REFERENCES ledger_transactions (id),
  account_id     TEXT NOT NULL,
  mode           TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  ledger_account TEXT NOT NULL CHECK (ledger_account IN ('processor_clearing', 'merchant_balance', 'platform_fees', 'payouts_in_transit')),
  currency       TEXT NOT NULL,
  amount         BIGINT NOT NULL CHECK (amount <> 0),
  available_at   TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_transaction_id_idx ON ledger_entries (transaction_id);
CREATE INDEX ledger_entries_balance_idx ON ledger_entries (account_id, mode, ledger_account, currency);

CREATE FUNCTION ledger_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced TEXT;
BEGIN
  SELECT string_agg(currency || ' ' || total, ', ') INTO unbalanced
    FROM (SELECT currency, SUM(amount) AS total FROM ledger_entries WHERE transaction_id = NEW.transaction_id GROUP BY currency) sums
   WHERE total <> 0;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: %', NEW.transaction_id, unbalanced USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_transaction_balanced();

CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are never changed or removed; record a new transaction instead' USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();

-- The sandbox processor's own record of what it charged (test mode): a processor keeps its
-- charges, and answers a charge asked for again under the same key with the first one.
CREATE TABLE sandbox_charges (
  charge_key     TEXT PRIMARY KEY,
  payment_method TEXT NOT NULL,
  amount         BIGINT NOT NULL,
  currency       TEXT NOT NULL,
  -- succeeded, failed, requires_action (until the buyer authenticates), or pending (until settles_at).
  outcome        TEXT NOT NULL,
  failure_code   TEXT,
  failure_message TEXT,
  settles_at     TIMESTAMPTZ(3),
  created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);

-- Results of writes made under a client's Idempotency-Key (libs/db, decision 0025).
CREATE TABLE idempotency_keys (
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL,
  operation   TEXT NOT NULL,
  key_hash    TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  result      BYTEA,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  acts_on     TEXT,
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
