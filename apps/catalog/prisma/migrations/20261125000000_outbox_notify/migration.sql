-- Wakes the outbox relay when a transaction that wrote outbox rows commits, instead of leaving
-- it to its next poll (libs/kafka outbox-listener.ts, decision 0028). Notifications of one
-- transaction on one channel are delivered once, at commit.
CREATE FUNCTION notify_outbox_relay() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox_messages', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER outbox_messages_notify AFTER INSERT ON outbox_messages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_relay();
