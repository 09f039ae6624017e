-- The outbox relay's lease on the rows it is sending (libs/kafka outbox-claims.ts, decision 0019).
ALTER TABLE outbox_messages ADD COLUMN claimed_by TEXT, ADD COLUMN claimed_until TIMESTAMPTZ;
