-- An upgrade takes its ticket (pending_change_id) before it holds a unit of the new tier, so a
-- double-submitted upgrade holds one unit, not one per copy (decision 0032). The re-driver lets
-- go of tickets taken for an upgrade that was never recorded (its process died in between),
-- found through this index, which holds only the few tickets with a change under way; how long
-- ago a ticket was taken is its change id's time.
CREATE INDEX tickets_pending_change_idx ON tickets (pending_change_id) WHERE pending_change_id IS NOT NULL;
