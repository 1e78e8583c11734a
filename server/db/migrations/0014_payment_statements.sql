CREATE TABLE "payment_statement_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"statement_id" integer NOT NULL,
	"holding_id" integer NOT NULL,
	"line_number" integer NOT NULL,
	"payment_date" date NOT NULL,
	"payer" text,
	"reference" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"label" text,
	"dossier_id" integer,
	"outcome" text NOT NULL,
	"difference" numeric(12, 2),
	"state_before" jsonb,
	"state_after" jsonb
);
--> statement-breakpoint
CREATE TABLE "payment_statements" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"payer" text,
	"file_name" text,
	"status" text DEFAULT 'applied' NOT NULL,
	"lines_count" integer DEFAULT 0 NOT NULL,
	"total_amount" numeric(12, 2) NOT NULL,
	"applied_amount" numeric(12, 2) NOT NULL,
	"created_by_id" integer,
	"undone_at" timestamp with time zone,
	"undone_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "montant_paye" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "date_paiement" date;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "paiement_partiel" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "montant_du" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD CONSTRAINT "payment_statement_lines_statement_id_payment_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."payment_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD CONSTRAINT "payment_statement_lines_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD CONSTRAINT "payment_statements_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD CONSTRAINT "payment_statements_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD CONSTRAINT "payment_statements_undone_by_id_users_id_fk" FOREIGN KEY ("undone_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_statement_lines_statement_idx" ON "payment_statement_lines" USING btree ("statement_id","line_number");--> statement-breakpoint
CREATE INDEX "payment_statement_lines_dossier_idx" ON "payment_statement_lines" USING btree ("dossier_id");--> statement-breakpoint
CREATE INDEX "payment_statements_holding_created_idx" ON "payment_statements" USING btree ("holding_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_receivables_idx" ON "pec_dossiers" USING btree ("holding_id","date_facturation_effective") WHERE "pec_dossiers"."status" = 'billed';--> statement-breakpoint
-- Payments need billing.payment (formerly pec.billing): the key is renamed in every role, and the seeded roles that
-- record payments (src/domain/roles.ts: organisation administrators, audioprothésistes) receive it.
UPDATE "roles" SET "permissions" = array_replace("permissions", 'pec.billing', 'billing.payment') WHERE 'pec.billing' = ANY("permissions");--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'billing.payment') WHERE "holding_id" IS NULL AND "name" IN ('Administrateur d''organisation', 'Audioprothésiste') AND NOT ('billing.payment' = ANY("permissions"));
