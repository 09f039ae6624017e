-- Group commit of reservations (decision 0039): the commits of one tenant that arrive together
-- are settled in one statement. It marks every held reservation among p_ids committed (locking
-- their rows first, as a single settlement does), then moves each of their tiers' units from held
-- to sold, one update per tier, locking the tiers in id order as the sweeper does, so concurrent
-- statements cannot deadlock. Answers one row per reservation it committed, with its tier after
-- the whole batch; ids not held by the tenant (unknown, already settled) answer nothing.
CREATE FUNCTION commit_reservations(p_account_id text, p_mode text, p_ids text[], p_at timestamptz)
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
  WITH settled AS (
    UPDATE inventory_reservations r SET status = 'committed', committed_at = p_at
     WHERE r.id = ANY (p_ids) AND r.account_id = p_account_id AND r.mode = p_mode AND r.status = 'held'
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
