DROP INDEX "pec_dossiers_holding_created_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_shop_created_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_status_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_status_id_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_shop_status_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_total_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_validation_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_total_desc_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_validation_desc_idx";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "entity_label" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archive_reason" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archive_note" text;--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_quote_idx" ON "pec_dossiers" USING btree ("holding_id","numero_devis_assure");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_created_idx" ON "pec_dossiers" USING btree ("holding_id","archived","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_shop_created_idx" ON "pec_dossiers" USING btree ("shop_id","archived","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_status_idx" ON "pec_dossiers" USING btree ("holding_id","archived","status","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_status_id_idx" ON "pec_dossiers" USING btree ("holding_id","archived","status","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_idx" ON "pec_dossiers" USING btree ("holding_id","archived");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_shop_status_idx" ON "pec_dossiers" USING btree ("holding_id","shop_id","archived","status");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_total_idx" ON "pec_dossiers" USING btree ("holding_id","archived","total_ttc","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_validation_idx" ON "pec_dossiers" USING btree ("holding_id","archived","date_validation","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_total_desc_idx" ON "pec_dossiers" USING btree ("holding_id","archived","total_ttc" DESC NULLS LAST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_validation_desc_idx" ON "pec_dossiers" USING btree ("holding_id","archived","date_validation" DESC NULLS LAST,"id" DESC NULLS FIRST);