ALTER TABLE "audit_logs" ADD COLUMN "entity_label" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archived" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archive_reason" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "archive_note" text;--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_quote_idx" ON "pec_dossiers" USING btree ("holding_id","numero_devis_assure");