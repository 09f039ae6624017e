-- A tier as JSON with its event's currency: what reservation calls answer (ReservationRepository).
CREATE FUNCTION tier_json(t tiers, currency text) RETURNS json LANGUAGE sql IMMUTABLE AS $$
  SELECT json_build_object('id', t.id, 'mode', t.mode, 'event_id', t.event_id, 'name', t.name, 'price', t.price, 'currency', currency,
    'capacity', t.capacity, 'held', t.held, 'sold', t.sold, 'sales_start_at', t.sales_start_at, 'sales_end_at', t.sales_end_at,
    'min_per_order', t.min_per_order, 'max_per_order', t.max_per_order, 'seated', t.seated, 'rank', t.rank,
    'created_at', t.created_at, 'updated_at', t.updated_at)
$$;

-- Takes units of a tier for a new reservation in one statement (decision 0029): the tier's row is
-- locked only while PostgreSQL runs this, never across a round trip to the service, so an
-- on-sale rush on one tier queues on the database's speed, not on the service's event loop.
--
-- Claims the id, then adds the quantity to `held` only if every rule holds at p_at (capacity; for
-- a sale a published event, an open sales window and the per-order limits; for a comp, an event
-- that is not canceled or completed). If the rules refuse, the claim is undone. Answers one row:
--   taken        the units are held; tier is the tier after the change
--   refused      nothing changed; tier and event_status as they are, for the caller to explain
--   not_claimed  the id already exists, or the tenant has no such tier in that event
CREATE FUNCTION reserve_inventory(
  p_id text, p_account_id text, p_mode text, p_event_id text, p_tier_id text, p_kind text, p_quantity integer,
  p_expires_at timestamptz, p_at timestamptz
) RETURNS TABLE (outcome text, event_status text, tier json) LANGUAGE plpgsql AS $$
DECLARE
  taken tiers;
BEGIN
  INSERT INTO inventory_reservations (id, account_id, mode, event_id, tier_id, kind, quantity, status, expires_at, created_at)
  SELECT p_id, t.account_id, t.mode, t.event_id, t.id, p_kind, p_quantity, 'held', p_expires_at, p_at
    FROM tiers t WHERE t.id = p_tier_id AND t.event_id = p_event_id AND t.account_id = p_account_id AND t.mode = p_mode
  ON CONFLICT (id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'not_claimed'::text, NULL::text, NULL::json;
    RETURN;
  END IF;

  UPDATE tiers t SET held = t.held + p_quantity, updated_at = p_at
    FROM events e
   WHERE t.id = p_tier_id AND e.id = t.event_id
     AND t.held + t.sold + p_quantity <= t.capacity
     AND (e.status = 'published' OR (e.status = 'draft' AND p_kind = 'comp'))
     AND (p_kind = 'comp' OR (
           (t.sales_start_at IS NULL OR t.sales_start_at <= p_at) AND (t.sales_end_at IS NULL OR t.sales_end_at > p_at)
           AND p_quantity >= t.min_per_order AND (t.max_per_order IS NULL OR p_quantity <= t.max_per_order)))
  RETURNING t.* INTO taken;

  IF NOT FOUND THEN
    DELETE FROM inventory_reservations WHERE id = p_id;
    RETURN QUERY SELECT 'refused'::text, e.status, tier_json(t, e.currency) FROM tiers t JOIN events e ON e.id = t.event_id WHERE t.id = p_tier_id;
    RETURN;
  END IF;
  RETURN QUERY SELECT 'taken'::text, e.status, tier_json(taken, e.currency) FROM events e WHERE e.id = taken.event_id;
END
$$;
