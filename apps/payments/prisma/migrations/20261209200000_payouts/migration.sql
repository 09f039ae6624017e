-- The payout (connect) account of each account and mode, and its payouts (decision 0063).
CREATE TABLE connect_accounts (
  id                  TEXT COLLATE "C" PRIMARY KEY,
  account_id          TEXT NOT NULL,
  mode                TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  status              TEXT NOT NULL CHECK (status IN ('onboarding', 'pending_verification', 'enabled')),
  business_name       TEXT,
  country             TEXT,
  default_currency    TEXT,
  account_holder_name TEXT,
  -- Only the bank account number's last four digits are kept.
  bank_account_last4  TEXT,
  created_at          TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at          TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  UNIQUE (account_id, mode)
);
CREATE INDEX connect_accounts_verifying ON connect_accounts (updated_at) WHERE status = 'pending_verification';

CREATE TABLE payouts (
  id                 TEXT COLLATE "C" PRIMARY KEY,
  account_id         TEXT NOT NULL,
  mode               TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  amount             BIGINT NOT NULL CHECK (amount > 0),
  currency           TEXT NOT NULL,
  status             TEXT NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed')),
  description        TEXT,
  destination_last4  TEXT NOT NULL,
  failure_code       TEXT,
  failure_message    TEXT,
  created_at         TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at         TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX payouts_account_id_mode_id_idx ON payouts (account_id, mode, id DESC);
CREATE INDEX payouts_moving ON payouts (updated_at) WHERE status IN ('pending', 'in_transit');

-- A payout that reached the bank: the money leaves the processor's hands.
ALTER TABLE ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check;
ALTER TABLE ledger_transactions ADD CONSTRAINT ledger_transactions_kind_check CHECK (kind IN ('charge', 'fee', 'refund', 'payout', 'payout_paid', 'payout_failure'));
