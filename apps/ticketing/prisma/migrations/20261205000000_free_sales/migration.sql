-- A sale that costs nothing (a free tier, a discount of the whole total) may come without a
-- payment; any other sale still records one, and a comp never does.
ALTER TABLE issuances DROP CONSTRAINT issuances_kind_fields;
ALTER TABLE issuances ADD CONSTRAINT issuances_kind_fields CHECK (
  (kind = 'comp') = (comp_reason IS NOT NULL)
  AND (kind = 'sale' OR payment_type IS NULL)
  AND (kind = 'comp' OR payment_type IS NOT NULL OR amount = 0)
);
