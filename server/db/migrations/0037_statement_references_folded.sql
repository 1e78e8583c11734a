-- ==================== Hand-written (statements): the one fold in SQL, the lines' keys and the fingerprints ====================
-- Everything from here to the end of this block is written by hand, not by drizzle-kit; the indexes after it are
-- drizzle-kit's (server/db/schema.ts), built on the function created here.
-- 1. pecflow_fold is foldForKey (domain/payments.ts), the same steps: decomposed (NFD), everything but the ASCII letters
-- and digits dropped (the accents with it), upper-cased (COLLATE "C": ASCII only, whatever the database's locale). A
-- statement's reference names a file by its PEC number, invoice number or Pecflow ID compared so ("SANTECLAIR
-- 972783118" = "SANTECLAIR-972783118"), and the indexes on the folded numbers need the fold in SQL. Immutable: an index
-- may use it.
CREATE OR REPLACE FUNCTION pecflow_fold(value text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT upper(regexp_replace(normalize(value, NFD), '[^A-Za-z0-9]', '', 'g') COLLATE "C")
$$;
--> statement-breakpoint
-- 2. Each statement line's key again by this fold (receivedLineKey: payer|reference|cents|day): migration 0035's list of
-- accented letters left out those it did not name ("ō", "ș"), which the server folds.
UPDATE "payment_statement_lines" SET "line_key" =
  pecflow_fold(coalesce("payer", '')) || '|' || pecflow_fold("reference") || '|' || round("amount" * 100)::bigint::text || '|' || to_char("payment_date", 'YYYY-MM-DD');
--> statement-breakpoint
-- 3. Each statement's fingerprint from its lines' keys (statementIdentity: sha256 of the keys in byte order, one per
-- line), as the server computes it now; migration 0019's folded spaces and ASCII case only, so that a copy written
-- « SANTÉCLAIR » for « SANTECLAIR » was not the same statement. As 0019 did, of two applied statements of an
-- organisation with the same fingerprint the later keeps none (the unique index allows one). The fingerprints are
-- cleared first: a statement's new one may be another's old one, and the unique index checks each row as it is written.
UPDATE "payment_statements" SET "content_hash" = NULL WHERE "content_hash" IS NOT NULL;
--> statement-breakpoint
WITH hashes AS (
  SELECT s."id", s."holding_id", s."status", s."created_at",
    encode(sha256(convert_to(string_agg(l."line_key", chr(10) ORDER BY l."line_key" COLLATE "C"), 'UTF8')), 'hex') AS "content_hash"
  FROM "payment_statements" s JOIN "payment_statement_lines" l ON l."statement_id" = s."id"
  GROUP BY s."id"
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "holding_id", "content_hash", "status" ORDER BY "created_at", "id") AS "rank" FROM hashes
)
UPDATE "payment_statements" s SET "content_hash" = CASE WHEN r."status" = 'applied' AND r."rank" > 1 THEN NULL ELSE r."content_hash" END
FROM ranked r WHERE r."id" = s."id";
--> statement-breakpoint
-- ==================== End of the hand-written block ====================
CREATE INDEX "pec_dossiers_holding_num_pec_fold_idx" ON "pec_dossiers" USING btree ("holding_id",pecflow_fold("num_pec"));--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_num_billing_fold_idx" ON "pec_dossiers" USING btree ("holding_id",pecflow_fold("num_billing"));--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_numero_fold_idx" ON "pec_dossiers" USING btree ("holding_id",pecflow_fold("numero_dossier"));
