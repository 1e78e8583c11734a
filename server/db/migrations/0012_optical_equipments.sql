CREATE TABLE "optical_equipments" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"classe" text,
	"monture_marque" text,
	"monture_modele" text,
	"monture_prix" numeric(12, 2),
	"monture_code_lpp" text,
	"verre_od" jsonb,
	"verre_og" jsonb
);
--> statement-breakpoint
ALTER TABLE "optical_equipments" ADD CONSTRAINT "optical_equipments_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "optical_equipments_dossier_idx" ON "optical_equipments" USING btree ("dossier_id");