ALTER TABLE "pec_dossiers" ADD COLUMN "nom_assure" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "prenom_assure" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "numero_adherent" text;--> statement-breakpoint
-- The search text of migration 0003 gains the insured's names and contract number (issue 29).
CREATE OR REPLACE FUNCTION pec_dossiers_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(unaccent(concat_ws(' ',
    NEW.numero_dossier,
    NEW.numero_dossier_assure,
    NEW.numero_devis_assure,
    NEW.nom_assure,
    NEW.prenom_assure,
    NEW.numero_adherent,
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
  BEFORE INSERT OR UPDATE OF numero_dossier, numero_dossier_assure, numero_devis_assure, nom_assure, prenom_assure, numero_adherent, shop_id, mutual_id ON pec_dossiers
  FOR EACH ROW EXECUTE FUNCTION pec_dossiers_search_text();
