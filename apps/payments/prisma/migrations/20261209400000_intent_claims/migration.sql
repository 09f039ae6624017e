-- The issuance a succeeded plain intent pays for (decision 0064): one at most.
ALTER TABLE payment_intents ADD COLUMN claimed_by TEXT;
