-- How an upgrade's difference was paid (decision 0064): money taken elsewhere, or a payment
-- intent (payment_reference is then its id); null when there was nothing to pay.
ALTER TABLE ticket_changes ADD COLUMN payment_type TEXT CHECK (payment_type IN ('external', 'payment_intent'));
UPDATE ticket_changes SET payment_type = 'external' WHERE payment_reference IS NOT NULL;
