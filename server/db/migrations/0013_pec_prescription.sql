CREATE TABLE "pec_rule_values" (
	"key" text PRIMARY KEY NOT NULL,
	"value" numeric(12, 2) NOT NULL,
	"unit" text NOT NULL,
	"label" text NOT NULL,
	"source" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "prescriber_id" integer;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "date_prescription" date;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "date_naissance_beneficiaire" date;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_prescriber_id_prescribers_id_fk" FOREIGN KEY ("prescriber_id") REFERENCES "public"."prescribers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_patient_idx" ON "pec_dossiers" USING btree ("holding_id","numero_dossier_assure");