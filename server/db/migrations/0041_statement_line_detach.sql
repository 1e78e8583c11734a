-- A line attached or counted by hand keeps its fields before its payment (before_payment), which its detach puts back.
-- No backfill: what a line handled before this migration was is overwritten, never guessed; its detach is refused
-- (the whole statement is cancelled instead). A line detached can be attached again: one payment per line that counts.
DROP INDEX "pec_payments_statement_line_idx";--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "before_payment" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "pec_payments_statement_line_idx" ON "pec_payments" USING btree ("statement_line_id") WHERE "pec_payments"."reversed_at" is null;
