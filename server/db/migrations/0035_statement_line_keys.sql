ALTER TABLE "payment_statement_lines" ADD COLUMN "line_key" text;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "outcome_label" text;--> statement-breakpoint
CREATE INDEX "payment_statement_lines_key_idx" ON "payment_statement_lines" USING btree ("holding_id","line_key");--> statement-breakpoint
CREATE INDEX "payment_statement_lines_applied_in_idx" ON "payment_statement_lines" USING btree ("applied_in_id");--> statement-breakpoint
-- ==================== Hand-written (money counted once): the keys of the lines applied before ====================
-- Everything below is written by hand, not by drizzle-kit. The server compares lines with foldForKey (domain/payments.ts):
-- letters and digits only, without accents or case. The same fold in SQL: the accented letters translated, upper,
-- anything but A-Z and 0-9 removed.
-- 1. Each statement line keeps the line as the insurer wrote it (receivedLineKey: payer|reference|cents|day).
UPDATE "payment_statement_lines" SET "line_key" =
  regexp_replace(upper(translate(coalesce("payer", ''), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŸ', 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY')), '[^A-Z0-9]', '', 'g')
  || '|' || regexp_replace(upper(translate("reference", 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŸ', 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY')), '[^A-Z0-9]', '', 'g')
  || '|' || round("amount" * 100)::bigint::text || '|' || to_char("payment_date", 'YYYY-MM-DD');
--> statement-breakpoint
-- 2. A statement's payment on a file is keyed by its payer, amount and day (filePaymentKey), the reference left out: it
-- only named the file. Where a file holds the same payment twice (written differently by two statements, the fault
-- this migration closes), the first keeps the key and the others none, as migration 0019 did: nothing is cancelled
-- here, the office undoes the statement that counted it twice. A new key (3 parts) never equals an old one (4 parts).
WITH keyed AS (
  SELECT "id", "dossier_id", "reversed_at",
    regexp_replace(upper(translate(coalesce("payer", ''), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝŸ', 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY')), '[^A-Z0-9]', '', 'g')
    || '|' || round("amount" * 100)::bigint::text || '|' || to_char("payment_date", 'YYYY-MM-DD') AS "line_key"
  FROM "pec_payments" WHERE "line_key" IS NOT NULL
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "dossier_id", "line_key", "reversed_at" IS NULL ORDER BY "id") AS "rank" FROM keyed
)
UPDATE "pec_payments" p SET "line_key" = CASE WHEN r."reversed_at" IS NULL AND r."rank" > 1 THEN NULL ELSE r."line_key" END
FROM ranked r WHERE p."id" = r."id";
--> statement-breakpoint
-- 3. A line already applied keeps what counted it, as the server words it (STATEMENT_MESSAGES.alreadyApplied and
-- repeatedLine, the day in Paris); before, it was worked out again at each reading.
UPDATE "payment_statement_lines" l SET "outcome_label" =
  'Déjà appliquée (relevé n° ' || s."id" || ' du ' || to_char(s."created_at" AT TIME ZONE 'Europe/Paris', 'DD/MM/YYYY') || ')'
FROM "payment_statements" s WHERE l."applied_in_id" = s."id" AND l."outcome" = 'already_applied';
--> statement-breakpoint
UPDATE "payment_statement_lines" l SET "outcome_label" = 'Déjà appliquée (ligne ' || (
  SELECT min(f."line_number") FROM "payment_statement_lines" f
   WHERE f."statement_id" = l."statement_id" AND f."dossier_id" = l."dossier_id" AND f."outcome" IN ('paid', 'partial', 'overpaid')
     AND f."amount" = l."amount" AND f."payment_date" = l."payment_date" AND f."line_number" < l."line_number") || ' de ce relevé)'
WHERE l."outcome" = 'already_applied' AND l."applied_in_id" IS NULL AND l."dossier_id" IS NOT NULL;
-- ==================== End of the hand-written block ====================
