-- A deleted trigger leaves its id behind, so a client paging a discount's triggers with the
-- deleted one as `starting_after` gets the rest of the list instead of a 400: the spec says to
-- continue while has_more is true, and a delete between two pages must not end the walk.
CREATE TABLE deleted_discount_triggers (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL,
  mode        TEXT NOT NULL,
  discount_id TEXT NOT NULL,
  deleted_at  TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
