-- Order intents (decision 0062): what the intent buys, how long it holds its units unpaid, and
-- where those units are (held for it, sold to it, given back).
ALTER TABLE payment_intents
  ADD COLUMN order_details JSONB,
  ADD COLUMN expires_at TIMESTAMPTZ(3),
  ADD COLUMN inventory TEXT CHECK (inventory IN ('held', 'committed', 'released')),
  ADD CONSTRAINT payment_intents_order_fields CHECK ((order_details IS NULL) = (expires_at IS NULL) AND (order_details IS NULL) = (inventory IS NULL));

-- The expiry sweep's scan: order intents still holding units.
CREATE INDEX payment_intents_holding ON payment_intents (expires_at) WHERE inventory = 'held';

-- A sandbox charge given back in full before a payment was made of it (decision 0062).
ALTER TABLE sandbox_charges ADD COLUMN reversed BOOLEAN NOT NULL DEFAULT false;
