-- One issuance per waiting-room admission, as before, indexing only the issuances that used one.
-- The whole-column index took an entry for every issuance (almost none comes through a waiting
-- room) and another at each update that moved the row, such as pending → issued: two index
-- entries per sale for nothing. Lookups by an admission (`= $1`) still use it.
DROP INDEX issuances_admission_entry_id_idx;
CREATE UNIQUE INDEX issuances_admission_entry_id_idx ON issuances (admission_entry_id) WHERE admission_entry_id IS NOT NULL;
