-- What a call that claimed its key early acts on outside this database (its issuance's id, under
-- which catalog holds units), so that a call taking over the claim after it lapsed undoes that
-- first (libs/db EarlyKeyClaims, decision 0041).
ALTER TABLE idempotency_keys ADD COLUMN acts_on TEXT;
