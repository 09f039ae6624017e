-- Issuances paid through a payment intent (decision 0062): issued when payments says the intent
-- succeeded, under the issuance ids its order's units were held with in catalog.
ALTER TABLE issuances DROP CONSTRAINT issuances_payment_type_check;
ALTER TABLE issuances ADD CONSTRAINT issuances_payment_type_check CHECK (payment_type IN ('external', 'payment_intent'));
