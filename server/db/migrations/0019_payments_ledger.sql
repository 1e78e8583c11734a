CREATE TABLE "pec_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"payment_date" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"source" text NOT NULL,
	"statement_id" integer,
	"statement_line_id" integer,
	"payer" text,
	"reference" text,
	"label" text,
	"line_key" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reversed_at" timestamp with time zone,
	"reversed_by_id" integer,
	"reversal_reason" text
);
--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD COLUMN "applied_in_id" integer;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payment_statements" ADD COLUMN "period" text;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_statement_id_payment_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."payment_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_statement_line_id_payment_statement_lines_id_fk" FOREIGN KEY ("statement_line_id") REFERENCES "public"."payment_statement_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_payments" ADD CONSTRAINT "pec_payments_reversed_by_id_users_id_fk" FOREIGN KEY ("reversed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pec_payments_dossier_idx" ON "pec_payments" USING btree ("dossier_id","payment_date","id");--> statement-breakpoint
CREATE INDEX "pec_payments_statement_idx" ON "pec_payments" USING btree ("statement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pec_payments_statement_line_idx" ON "pec_payments" USING btree ("statement_line_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pec_payments_line_key_idx" ON "pec_payments" USING btree ("dossier_id","line_key") WHERE "pec_payments"."line_key" is not null and "pec_payments"."reversed_at" is null;--> statement-breakpoint
ALTER TABLE "payment_statement_lines" ADD CONSTRAINT "payment_statement_lines_applied_in_id_payment_statements_id_fk" FOREIGN KEY ("applied_in_id") REFERENCES "public"."payment_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_statements_applied_content_idx" ON "payment_statements" USING btree ("holding_id","content_hash") WHERE "payment_statements"."status" = 'applied';--> statement-breakpoint
CREATE UNIQUE INDEX "payment_statements_applied_reference_idx" ON "payment_statements" USING btree ("holding_id","payer","reference") WHERE "payment_statements"."status" = 'applied' and "payment_statements"."reference" is not null;--> statement-breakpoint
-- ==================== Hand-written (issue 25): backfill of the payment history ====================
-- Everything below is written by hand, not by drizzle-kit. It gives installations that recorded payments before the
-- history existed the rows that explain each file's amount paid, so that the stored columns (montant_paye...) and the
-- history agree from the start:
--   1. every line a statement applied to a file becomes a payment of that statement (cancelled when the statement was
--      undone), with its line key (domain/payments.ts, statementLineKey: only spaces and ASCII case folded, so that
--      this SQL gives the same key);
--   2. every manual payment ('Enregistrer un paiement', audited as pec_dossier.payment with `paiement`) becomes a
--      manual payment by its author, at its time;
--   3. what a file's amount paid holds beyond these (the demo data's amounts, any amount set without a trace) becomes
--      one manual payment "Paiement enregistré avant l'historique des paiements", dated the file's payment date;
--   4. every statement gets the fingerprint of its content (sha256 of its lines' keys in byte order, one per line),
--      as server/pec/payments.ts computes it.
-- A line applied twice before this migration (the bug it fixes) keeps its two payments, as the files counted them; the
-- later one has no key (the unique index of keys would refuse it), and so has the later of two identical applied
-- statements' fingerprints: undo the duplicate statement to correct the file.
WITH lines AS (
  SELECT l.id AS line_id, l.holding_id, l.dossier_id, l.payment_date, l.amount, l.payer, l.reference, l.label,
    s.id AS statement_id, s.status, s.created_by_id, s.created_at, s.undone_at, s.undone_by_id,
    concat_ws('|',
      translate(btrim(regexp_replace(coalesce(l.payer, ''), '[ ' || chr(9) || chr(10) || chr(13) || ']+', ' ', 'g'), ' '), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      translate(btrim(regexp_replace(l.reference, '[ ' || chr(9) || chr(10) || chr(13) || ']+', ' ', 'g'), ' '), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      (l.amount * 100)::bigint::text,
      to_char(l.payment_date, 'YYYY-MM-DD')) AS line_key
  FROM payment_statement_lines l JOIN payment_statements s ON s.id = l.statement_id
  WHERE l.dossier_id IS NOT NULL AND l.outcome IN ('paid', 'partial', 'overpaid')
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY dossier_id, line_key, status ORDER BY created_at, statement_id, line_id) AS rank FROM lines
)
INSERT INTO "pec_payments" (holding_id, dossier_id, payment_date, amount, source, statement_id, statement_line_id, payer, reference, label,
  line_key, created_by_id, created_at, reversed_at, reversed_by_id, reversal_reason)
SELECT holding_id, dossier_id, payment_date, amount, 'statement', statement_id, line_id, payer, reference, label,
  CASE WHEN status = 'applied' AND rank > 1 THEN NULL ELSE line_key END, created_by_id, created_at,
  CASE WHEN status = 'undone' THEN coalesce(undone_at, created_at) END, CASE WHEN status = 'undone' THEN undone_by_id END,
  CASE WHEN status = 'undone' THEN 'Relevé annulé' END
FROM ranked ORDER BY created_at, statement_id, line_id;
--> statement-breakpoint
INSERT INTO "pec_payments" (holding_id, dossier_id, payment_date, amount, source, label, created_by_id, created_at)
SELECT d.holding_id, d.id, (a.changes -> 'paiement' -> 'after' ->> 'date')::date, (a.changes -> 'paiement' -> 'after' ->> 'montant')::numeric,
  'manual', nullif(a.changes -> 'paiement' -> 'after' ->> 'libelle', ''), (SELECT u.id FROM users u WHERE u.id = a.actor_id), a.created_at
FROM audit_logs a JOIN pec_dossiers d ON d.id::text = a.entity_id
WHERE a.entity = 'pec_dossiers' AND a.action = 'pec_dossier.payment' AND a.changes -> 'paiement' -> 'after' ->> 'montant' IS NOT NULL
ORDER BY a.created_at, a.id;
--> statement-breakpoint
INSERT INTO "pec_payments" (holding_id, dossier_id, payment_date, amount, source, label, created_at)
SELECT d.holding_id, d.id, coalesce(d.date_paiement, d.date_facturation_effective, current_date),
  d.montant_paye - coalesce((SELECT sum(p.amount) FROM pec_payments p WHERE p.dossier_id = d.id AND p.reversed_at IS NULL), 0),
  'manual', 'Paiement enregistré avant l''historique des paiements', now()
FROM pec_dossiers d
WHERE d.montant_paye > coalesce((SELECT sum(p.amount) FROM pec_payments p WHERE p.dossier_id = d.id AND p.reversed_at IS NULL), 0)
ORDER BY d.id;
--> statement-breakpoint
WITH keys AS (
  SELECT l.statement_id,
    concat_ws('|',
      translate(btrim(regexp_replace(coalesce(l.payer, ''), '[ ' || chr(9) || chr(10) || chr(13) || ']+', ' ', 'g'), ' '), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      translate(btrim(regexp_replace(l.reference, '[ ' || chr(9) || chr(10) || chr(13) || ']+', ' ', 'g'), ' '), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
      (l.amount * 100)::bigint::text,
      to_char(l.payment_date, 'YYYY-MM-DD')) AS line_key
  FROM payment_statement_lines l
), hashes AS (
  SELECT s.id, s.holding_id, s.status, s.created_at,
    encode(sha256(convert_to(string_agg(k.line_key, chr(10) ORDER BY k.line_key COLLATE "C"), 'UTF8')), 'hex') AS content_hash
  FROM payment_statements s JOIN keys k ON k.statement_id = s.id
  GROUP BY s.id
), ranked AS (
  SELECT *, row_number() OVER (PARTITION BY holding_id, content_hash, status ORDER BY created_at, id) AS rank FROM hashes
)
UPDATE "payment_statements" s SET content_hash = CASE WHEN r.status = 'applied' AND r.rank > 1 THEN NULL ELSE r.content_hash END
FROM ranked r WHERE r.id = s.id;
-- ==================== End of the hand-written block ====================
