CREATE TABLE "pec_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "unique_key" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "follow_up_date" date;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "status_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "pec_notes" ADD CONSTRAINT "pec_notes_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_notes" ADD CONSTRAINT "pec_notes_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_notes" ADD CONSTRAINT "pec_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pec_notes_dossier_idx" ON "pec_notes" USING btree ("dossier_id","created_at","id");--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_unique_key_idx" ON "notifications" USING btree ("unique_key");--> statement-breakpoint
CREATE INDEX "pec_dossiers_owner_created_idx" ON "pec_dossiers" USING btree ("owner_id","archived","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_follow_up_date_idx" ON "pec_dossiers" USING btree ("holding_id","follow_up_date") WHERE "pec_dossiers"."follow_up_date" is not null and "pec_dossiers"."archived" = false;--> statement-breakpoint
CREATE INDEX "pec_dossiers_pending_since_idx" ON "pec_dossiers" USING btree ("holding_id","status_changed_at") WHERE "pec_dossiers"."status" = 'pending' and "pec_dossiers"."archived" = false;--> statement-breakpoint
-- Existing files: their creator follows them; their status is taken as changed at their last change.
UPDATE "pec_dossiers" SET "owner_id" = "created_by_id", "status_changed_at" = "updated_at";--> statement-breakpoint
-- When a file's status changes, whoever changes it (a form, a robot callback, an import): "En attente" since then.
-- A write that sets status_changed_at itself (the demo data, tests) keeps its value.
CREATE FUNCTION pecflow_status_changed() RETURNS trigger AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NEW.status_changed_at IS NOT DISTINCT FROM OLD.status_changed_at THEN
    NEW.status_changed_at := now();
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER pec_dossiers_status_changed BEFORE UPDATE OF status ON "pec_dossiers" FOR EACH ROW EXECUTE FUNCTION pecflow_status_changed();
