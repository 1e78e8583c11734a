-- Indexes proposed in bench/NEEDED-INDEXES.md, to measure their effect before they reach server/db/schema.ts:
--   npm run bench -- --sql=bench/proposed-indexes.sql --tag=proposed-indexes
-- (applied to the throw-away bench database only, after the seed).
CREATE INDEX users_last_name_idx ON users (last_name, id);
CREATE INDEX users_holding_last_name_idx ON users (holding_id, last_name, id);
CREATE INDEX shops_name_idx ON shops (name, id);
CREATE INDEX shops_holding_name_idx ON shops (holding_id, name, id);
CREATE INDEX companies_name_idx ON companies (name, id);
CREATE INDEX companies_holding_name_idx ON companies (holding_id, name, id);
CREATE INDEX software_label_idx ON software (label, id) WHERE deleted_at IS NULL;
CREATE INDEX software_holding_label_idx ON software (holding_id, label, id) WHERE deleted_at IS NULL;
CREATE INDEX mutuals_name_idx ON mutuals (name, id);
ANALYZE;
