ALTER TABLE "payment_statement_lines" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "resolution_note" text;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "resolved_by_id" integer;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD COLUMN "pending_lines" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD CONSTRAINT "payment_statement_lines_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The statements applied before: their lines whose money reached no file are to be handled (domain/payments.ts PENDING_OUTCOMES).
UPDATE "payment_statements" s SET "pending_lines" = (SELECT count(*) FROM "payment_statement_lines" l WHERE l."statement_id" = s."id" AND l."outcome" IN ('unknown', 'not_billed', 'already_paid')) WHERE s."status" = 'applied';
