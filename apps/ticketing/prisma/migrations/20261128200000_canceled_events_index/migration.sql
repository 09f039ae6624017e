-- The re-driver looks at the events canceled in the last day for tickets an in-flight issuance
-- or upgrade made valid after the cancellation was applied (decision 0032).
CREATE INDEX event_settings_canceled_idx ON event_settings (updated_at) WHERE status = 'canceled';
