-- The search text of migration 0026 gains the N° PEC and the invoice number: an office finds a file by the number an
-- insurer's letter or statement gives ('Rattacher' a statement line, the PEC list's search).
CREATE OR REPLACE FUNCTION pec_dossiers_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(unaccent(concat_ws(' ',
    NEW.numero_dossier,
    NEW.numero_dossier_assure,
    NEW.numero_devis_assure,
    NEW.nom_assure,
    NEW.prenom_assure,
    NEW.numero_adherent,
    NEW.num_pec,
    NEW.num_billing,
    (SELECT concat_ws(' ', s.name, s.display_name, s.code_client) FROM shops s WHERE s.id = NEW.shop_id),
    (SELECT concat_ws(' ', m.name, m.code) FROM mutuals m WHERE m.id = NEW.mutual_id)
  )));
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP TRIGGER pec_dossiers_search_text ON pec_dossiers;
--> statement-breakpoint
CREATE TRIGGER pec_dossiers_search_text
  BEFORE INSERT OR UPDATE OF numero_dossier, numero_dossier_assure, numero_devis_assure, nom_assure, prenom_assure, numero_adherent, num_pec, num_billing, shop_id, mutual_id ON pec_dossiers
  FOR EACH ROW EXECUTE FUNCTION pec_dossiers_search_text();
--> statement-breakpoint
-- The files that have either number get their search text again (the trigger computes it).
UPDATE pec_dossiers SET num_pec = num_pec WHERE num_pec IS NOT NULL OR num_billing IS NOT NULL;
