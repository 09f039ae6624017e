-- A discount takes off a percentage or a fixed amount (minor units of one currency). Codes are
-- stored upper case and are unique per account and mode; automatic discounts have none.
-- times_redeemed moves only through conditional updates, and the CHECKs back them.
CREATE TABLE discounts (
  id                           TEXT COLLATE "C" PRIMARY KEY,
  account_id                   TEXT NOT NULL,
  mode                         TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  code                         TEXT CHECK (code ~ '^[A-Z0-9_-]{3,64}$'),
  percent_off                  INTEGER CHECK (percent_off BETWEEN 1 AND 100),
  amount_off                   BIGINT CHECK (amount_off >= 1),
  currency                     TEXT CHECK (currency ~ '^[A-Z]{3}$'),
  event_ids                    TEXT[] NOT NULL DEFAULT '{}',
  tier_ids                     TEXT[] NOT NULL DEFAULT '{}',
  valid_from                   TIMESTAMPTZ(3),
  valid_until                  TIMESTAMPTZ(3),
  max_redemptions              INTEGER CHECK (max_redemptions >= 1),
  max_redemptions_per_customer INTEGER CHECK (max_redemptions_per_customer >= 1),
  times_redeemed               INTEGER NOT NULL DEFAULT 0 CHECK (times_redeemed >= 0),
  active                       BOOLEAN NOT NULL DEFAULT true,
  created_at                   TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  updated_at                   TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT discounts_one_value CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
  CONSTRAINT discounts_currency_with_amount CHECK ((amount_off IS NULL) = (currency IS NULL)),
  CONSTRAINT discounts_validity_window CHECK (valid_until IS NULL OR valid_from IS NULL OR valid_until > valid_from),
  CONSTRAINT discounts_never_over_redeemed CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions)
);
CREATE UNIQUE INDEX discounts_account_id_mode_code_key ON discounts (account_id, mode, code);
CREATE INDEX discounts_account_id_mode_id_idx ON discounts (account_id, mode, id DESC);

-- A condition of a discount; exactly the columns of its kind are set. Triggers are never
-- changed, only added and deleted.
CREATE TABLE discount_triggers (
  id           TEXT COLLATE "C" PRIMARY KEY,
  account_id   TEXT NOT NULL,
  mode         TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  discount_id  TEXT COLLATE "C" NOT NULL REFERENCES discounts (id),
  kind         TEXT NOT NULL CHECK (kind IN ('min_quantity', 'purchase_window', 'customer_segment', 'tier_bundle')),
  min_quantity INTEGER CHECK (min_quantity >= 1),
  starts_at    TIMESTAMPTZ(3),
  ends_at      TIMESTAMPTZ(3),
  segment_id   TEXT,
  tier_ids     TEXT[] NOT NULL DEFAULT '{}',
  created_at   TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT discount_triggers_columns_of_kind CHECK (
    (kind = 'min_quantity') = (min_quantity IS NOT NULL)
    AND (kind = 'purchase_window') = (starts_at IS NOT NULL OR ends_at IS NOT NULL)
    AND (kind = 'customer_segment') = (segment_id IS NOT NULL)
    AND (kind = 'tier_bundle') = (cardinality(tier_ids) > 0)
  ),
  CONSTRAINT discount_triggers_window CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX discount_triggers_discount_id_id_idx ON discount_triggers (discount_id, id DESC);

-- One row per paid order that used a discount: the primary key makes a repeated redemption of
-- the same order count once. A released row (refund) no longer counts towards any limit.
CREATE TABLE discount_redemptions (
  discount_id TEXT COLLATE "C" NOT NULL REFERENCES discounts (id),
  order_id    TEXT NOT NULL,
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  customer_id TEXT,
  redeemed_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  released_at TIMESTAMPTZ(3),
  PRIMARY KEY (discount_id, order_id)
);
CREATE INDEX discount_redemptions_discount_id_customer_id_idx ON discount_redemptions (discount_id, customer_id);
