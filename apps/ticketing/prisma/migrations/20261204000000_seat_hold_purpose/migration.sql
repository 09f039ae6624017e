-- A seat hold is for a sale (every hold before this migration) or for comps (decision 0034): a
-- comp hold is made without an admission while the event's waiting room is enabled, and only a
-- comp can take it.
ALTER TABLE seat_holds ADD COLUMN purpose TEXT COLLATE "C" NOT NULL DEFAULT 'sale' CONSTRAINT seat_holds_purpose_check CHECK (purpose IN ('sale', 'comp'));
