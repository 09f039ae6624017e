-- commit_reservations finds its reservations by primary key alone. It said `status = 'held'` of
-- the rows it updates, which is the predicate of the partial expiry index (held reservations by
-- expiry, the sweeper's), so the planner could read that whole index to find them: with the ids
-- ANDed in a bitmap, or as the outer side of a join with them. Each committed reservation leaves
-- a dead entry in that index until the table is vacuumed, so during an on-sale each commit read
-- thousands of entries more than the one before. Now the rows are locked by id first, which only
-- the primary key serves, and their status is checked as locked (the latest, once a concurrent
-- settlement of the same row has committed), so no condition of the statement matches the
-- partial index's predicate.
CREATE OR REPLACE FUNCTION commit_reservations(p_account_id text, p_mode text, p_ids text[], p_at timestamptz)
RETURNS TABLE (
  id text, mode text, event_id text, tier_id text, kind text, quantity integer, status text,
  expires_at timestamptz, created_at timestamptz, committed_at timestamptz, released_at timestamptz, tier json
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  committed inventory_reservations[];
  moving record;
  t tiers;
  currency_now text;
  tiers_after jsonb := '{}';
BEGIN
  WITH locked AS MATERIALIZED (
    SELECT r.id, r.status FROM inventory_reservations r
     WHERE r.id = ANY (p_ids) AND r.account_id = p_account_id AND r.mode = p_mode
       FOR UPDATE),
  settled AS (
    UPDATE inventory_reservations r SET status = 'committed', committed_at = p_at
      FROM locked WHERE r.id = locked.id AND locked.status = 'held'
    RETURNING r.*)
  SELECT coalesce(array_agg(settled), '{}') INTO committed FROM settled;

  FOR moving IN SELECT c.tier_id AS tier_id, sum(c.quantity)::integer AS quantity FROM unnest(committed) c GROUP BY c.tier_id ORDER BY c.tier_id LOOP
    UPDATE tiers SET held = tiers.held - moving.quantity, sold = tiers.sold + moving.quantity, updated_at = p_at
     WHERE tiers.id = moving.tier_id
    RETURNING * INTO t;
    SELECT e.currency INTO currency_now FROM events e WHERE e.id = t.event_id;
    tiers_after := tiers_after || jsonb_build_object(t.id, tier_json(t, currency_now));
  END LOOP;

  RETURN QUERY
    SELECT c.id, c.mode, c.event_id, c.tier_id, c.kind, c.quantity, c.status, c.expires_at, c.created_at, c.committed_at, c.released_at,
           (tiers_after -> c.tier_id)::json
      FROM unnest(committed) c;
END
$$;
