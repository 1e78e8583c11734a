-- btree_gin lets one GIN index hold the organisation and the search trigrams (trusted: no superuser needed).
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "pec_dossiers_search_idx";--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_search_idx" ON "pec_dossiers" USING gin ("holding_id","search_text" gin_trgm_ops);
