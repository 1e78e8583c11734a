CREATE TABLE "pec_document_chunks" (
	"document_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "pec_document_chunks_document_id_seq_pk" PRIMARY KEY("document_id","seq")
);
--> statement-breakpoint
CREATE TABLE "pec_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"kind" text NOT NULL,
	"original_name" text NOT NULL,
	"size" integer NOT NULL,
	"mime_type" text NOT NULL,
	"sha256" text NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pec_document_chunks" ADD CONSTRAINT "pec_document_chunks_document_id_pec_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."pec_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_documents" ADD CONSTRAINT "pec_documents_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_documents" ADD CONSTRAINT "pec_documents_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_documents" ADD CONSTRAINT "pec_documents_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pec_documents_dossier_idx" ON "pec_documents" USING btree ("dossier_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_documents_holding_idx" ON "pec_documents" USING btree ("holding_id");--> statement-breakpoint
-- The platform's seeded roles of an installation made before documents get their keys as a new one does
-- (domain/roles.ts); the organisation administrator has them through pec.*.
UPDATE "roles" SET "permissions" = array(select distinct unnest("permissions" || ARRAY['pec.documents.view', 'pec.documents.create', 'pec.documents.delete']))
  WHERE "holding_id" IS NULL AND "name" = 'Audioprothésiste';--> statement-breakpoint
UPDATE "roles" SET "permissions" = array(select distinct unnest("permissions" || ARRAY['pec.documents.view', 'pec.documents.create']))
  WHERE "holding_id" IS NULL AND "name" = 'Assistant(e)';--> statement-breakpoint
UPDATE "roles" SET "permissions" = array(select distinct unnest("permissions" || ARRAY['pec.documents.view']))
  WHERE "holding_id" IS NULL AND "name" = 'Lecture seule';
