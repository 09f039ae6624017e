-- A tier without a sales end sells until its event starts, as the API documents for a null
-- `sales_end_at`; before this, such a tier went on selling after the doors opened. The function
-- reads the event's start with its status, after locking the tier, and answers it so that a
-- refusal can say when sales ended. Otherwise reserve_inventory_batch is as 20261129000000 made
-- it; its answer gains a column, so it is dropped and created again.
DROP FUNCTION reserve_inventory_batch(text, text, text, text, text[], text[], integer[], timestamptz[], timestamptz[]);

CREATE FUNCTION reserve_inventory_batch(
  p_account_id text, p_mode text, p_event_id text, p_tier_id text,
  p_ids text[], p_kinds text[], p_quantities integer[], p_expires_at timestamptz[], p_at timestamptz[]
) RETURNS TABLE (ordinal integer, outcome text, event_status text, event_starts_at timestamptz, tier json, waiting_room_enabled boolean) LANGUAGE plpgsql AS $$
DECLARE
  t tiers;
  status_now text;
  room_now boolean;
  starts_now timestamptz;
  currency_now text;
  i integer;
  changed boolean := false;
BEGIN
  SELECT * INTO t FROM tiers
   WHERE tiers.id = p_tier_id AND tiers.event_id = p_event_id AND tiers.account_id = p_account_id AND tiers.mode = p_mode
     FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT g::integer, 'not_claimed'::text, NULL::text, NULL::timestamptz, NULL::json, NULL::boolean FROM generate_subscripts(p_ids, 1) AS g;
    RETURN;
  END IF;
  SELECT e.status, e.currency, e.waiting_room_enabled, e.starts_at INTO status_now, currency_now, room_now, starts_now FROM events e WHERE e.id = t.event_id;

  FOR i IN 1 .. coalesce(array_length(p_ids, 1), 0) LOOP
    ordinal := i;
    INSERT INTO inventory_reservations (id, account_id, mode, event_id, tier_id, kind, quantity, status, expires_at, created_at)
    VALUES (p_ids[i], t.account_id, t.mode, t.event_id, t.id, p_kinds[i], p_quantities[i], 'held', p_expires_at[i], p_at[i])
    ON CONFLICT (id) DO NOTHING;
    IF NOT FOUND THEN
      outcome := 'not_claimed'; event_status := NULL; event_starts_at := NULL; tier := NULL; waiting_room_enabled := NULL;
      RETURN NEXT;
      CONTINUE;
    END IF;

    IF t.held + t.sold + p_quantities[i] <= t.capacity
       AND (status_now = 'published' OR (status_now = 'draft' AND p_kinds[i] = 'comp'))
       AND (p_kinds[i] = 'comp' OR (
             (t.sales_start_at IS NULL OR t.sales_start_at <= p_at[i]) AND coalesce(t.sales_end_at, starts_now) > p_at[i]
             AND p_quantities[i] >= t.min_per_order AND (t.max_per_order IS NULL OR p_quantities[i] <= t.max_per_order))) THEN
      t.held := t.held + p_quantities[i];
      t.updated_at := p_at[i];
      changed := true;
      outcome := 'taken';
    ELSE
      DELETE FROM inventory_reservations r WHERE r.id = p_ids[i];
      outcome := 'refused';
    END IF;
    event_status := status_now;
    event_starts_at := starts_now;
    waiting_room_enabled := room_now;
    tier := tier_json(t, currency_now);
    RETURN NEXT;
  END LOOP;

  IF changed THEN
    UPDATE tiers SET held = t.held, updated_at = t.updated_at WHERE tiers.id = t.id;
  END IF;
END
$$;
