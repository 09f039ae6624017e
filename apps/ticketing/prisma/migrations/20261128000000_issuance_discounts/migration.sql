-- The discount that priced a sale (decision 0038): counted against its limits in catalog before
-- the sale's units are sold, and given back if the issuance is refused.
ALTER TABLE issuances ADD COLUMN discount_id TEXT COLLATE "C";
