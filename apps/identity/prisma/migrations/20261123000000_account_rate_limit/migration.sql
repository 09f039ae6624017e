-- An operator's per-account override of the gateway's requests-per-second budget; NULL means the default.
ALTER TABLE accounts ADD COLUMN rate_limit_per_second INTEGER CHECK (rate_limit_per_second > 0);
