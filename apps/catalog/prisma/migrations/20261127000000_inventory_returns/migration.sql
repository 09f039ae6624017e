-- Sold units given back to their tier (decision 0032): a refunded or revoked ticket, the old tier
-- of an upgrade. A return names the committed reservation the units were sold under and can
-- never give back more than it sold (`returned` counts what came back). Its id is chosen by the
-- caller, so a retried return finds itself instead of giving units back twice.
ALTER TABLE inventory_reservations
  ADD COLUMN returned INTEGER NOT NULL DEFAULT 0,
  ADD CONSTRAINT inventory_reservations_returned_range CHECK (returned >= 0 AND returned <= quantity);

CREATE TABLE inventory_returns (
  id             TEXT COLLATE "C" PRIMARY KEY,
  account_id     TEXT NOT NULL,
  mode           TEXT NOT NULL CHECK (mode IN ('test', 'live')),
  reservation_id TEXT COLLATE "C" NOT NULL REFERENCES inventory_reservations (id),
  quantity       INTEGER NOT NULL CHECK (quantity >= 1),
  created_at     TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX inventory_returns_reservation_id_idx ON inventory_returns (reservation_id);

-- Gives p_quantity sold units of a committed reservation back to its tier, in one statement.
-- Locks the reservation, then its tier (the order every reservation statement keeps), so
-- concurrent returns of one reservation queue and can never give back more than it sold.
-- Answers one row:
--   returned            the units are back; tier is the tier after the change
--   already_returned    this return id was made before, for the same reservation and quantity
--   id_reused           this return id was made before for something else; nothing changed
--   reservation_missing the tenant has no such reservation
--   not_committed       the reservation is held or released (reservation_status says which)
--   exceeds             fewer than p_quantity of its units are still sold (returned says how many came back)
CREATE FUNCTION return_inventory(
  p_id text, p_account_id text, p_mode text, p_reservation_id text, p_quantity integer, p_at timestamptz
) RETURNS TABLE (outcome text, reservation_status text, returned integer, tier json) LANGUAGE plpgsql AS $$
DECLARE
  source inventory_reservations;
  earlier inventory_returns;
  given_back tiers;
BEGIN
  SELECT * INTO source FROM inventory_reservations r
   WHERE r.id = p_reservation_id AND r.account_id = p_account_id AND r.mode = p_mode FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'reservation_missing'::text, NULL::text, NULL::integer, NULL::json;
    RETURN;
  END IF;

  SELECT * INTO earlier FROM inventory_returns WHERE id = p_id;
  IF FOUND THEN
    RETURN QUERY SELECT CASE WHEN earlier.reservation_id = p_reservation_id AND earlier.quantity = p_quantity THEN 'already_returned' ELSE 'id_reused' END,
      source.status, source.returned, tier_json(t, e.currency)
      FROM tiers t JOIN events e ON e.id = t.event_id WHERE t.id = source.tier_id;
    RETURN;
  END IF;
  IF source.status <> 'committed' THEN
    RETURN QUERY SELECT 'not_committed'::text, source.status, source.returned, NULL::json;
    RETURN;
  END IF;
  IF source.returned + p_quantity > source.quantity THEN
    RETURN QUERY SELECT 'exceeds'::text, source.status, source.returned, NULL::json;
    RETURN;
  END IF;

  INSERT INTO inventory_returns (id, account_id, mode, reservation_id, quantity, created_at)
  VALUES (p_id, p_account_id, p_mode, p_reservation_id, p_quantity, p_at);
  UPDATE inventory_reservations SET returned = source.returned + p_quantity WHERE id = p_reservation_id;
  UPDATE tiers t SET sold = t.sold - p_quantity, updated_at = p_at WHERE t.id = source.tier_id RETURNING t.* INTO given_back;
  RETURN QUERY SELECT 'returned'::text, source.status, source.returned + p_quantity, tier_json(given_back, e.currency)
    FROM events e WHERE e.id = given_back.event_id;
END
$$;
