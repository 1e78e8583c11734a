-- ==================== Hand-written (money counted once): a file's payment keyed by amount and day ====================
-- Everything here is written by hand (drizzle-kit generate --custom): no table changes. A statement's payment on a file
-- is now keyed by its amount and day alone (filePaymentKey, domain/payments.ts: cents|day). The payer left the key: an
-- insurer writes its name otherwise from one export to the next ("Allianz", "ALLIANZ SA"), and the same transfer then
-- counted twice. Where a file holds the same amount on the same day twice from two statements (that fault), the first
-- keeps the key and the others none, as migrations 0019 and 0035 did: nothing is cancelled here, the office undoes the
-- statement that counted it twice. A new key (2 parts) never equals an old one (3 parts).
WITH keyed AS (
  SELECT "id", "dossier_id", "reversed_at",
    round("amount" * 100)::bigint::text || '|' || to_char("payment_date", 'YYYY-MM-DD') AS "line_key"
  FROM "pec_payments" WHERE "line_key" IS NOT NULL
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY "dossier_id", "line_key", "reversed_at" IS NULL ORDER BY "id") AS "rank" FROM keyed
)
UPDATE "pec_payments" p SET "line_key" = CASE WHEN r."reversed_at" IS NULL AND r."rank" > 1 THEN NULL ELSE r."line_key" END
FROM ranked r WHERE p."id" = r."id";
-- ==================== End of the hand-written block ====================
