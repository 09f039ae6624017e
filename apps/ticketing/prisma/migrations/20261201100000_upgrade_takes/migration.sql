-- An upgrade takes its ticket (pending_change_id) before it holds a unit of the new tier, so a
-- double-submitted upgrade holds one unit, not one per copy (decision 0032). The re-driver frees
-- tickets whose upgrade was taken and never recorded (its process died in between); it finds
-- them through this index, which holds only the few tickets with a change under way.
CREATE INDEX tickets_pending_change_idx ON tickets (updated_at) WHERE pending_change_id IS NOT NULL;
