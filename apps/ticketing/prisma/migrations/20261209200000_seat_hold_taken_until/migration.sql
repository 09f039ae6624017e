-- A seat hold taken for an order intent (decision 0062) stays taken until the order's units are
-- given back (its intent's expiry and grace), not only its own expiry's grace.
ALTER TABLE seat_holds ADD COLUMN taken_until TIMESTAMPTZ(3);
