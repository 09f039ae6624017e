-- The sweep of expired idempotency records finds them by age (libs/db idempotency-sweeper.ts).
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
