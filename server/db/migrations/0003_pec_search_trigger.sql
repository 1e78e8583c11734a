-- The PEC list searches one column, search_text: the file, patient and quote numbers, the centre and the mutual,
-- without accents then lower-cased (in that order: lower() leaves accented capitals alone under the C locale), matched
-- with LIKE '%term%' through the trigram index pec_dossiers_search_idx. The database keeps it: on every write of a
-- file, and when a centre or a mutual is renamed.
CREATE OR REPLACE FUNCTION pec_dossiers_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(unaccent(concat_ws(' ',
    NEW.numero_dossier,
    NEW.numero_dossier_assure,
    NEW.numero_devis_assure,
    (SELECT concat_ws(' ', s.name, s.display_name, s.code_client) FROM shops s WHERE s.id = NEW.shop_id),
    (SELECT concat_ws(' ', m.name, m.code) FROM mutuals m WHERE m.id = NEW.mutual_id)
  )));
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER pec_dossiers_search_text
  BEFORE INSERT OR UPDATE OF numero_dossier, numero_dossier_assure, numero_devis_assure, shop_id, mutual_id ON pec_dossiers
  FOR EACH ROW EXECUTE FUNCTION pec_dossiers_search_text();
--> statement-breakpoint
-- Naming shop_id (or mutual_id) in the SET list fires the trigger above for the files of the renamed centre (or mutual).
CREATE OR REPLACE FUNCTION pec_dossiers_refresh_shop_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE pec_dossiers SET shop_id = shop_id WHERE shop_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shops_refresh_pec_search
  AFTER UPDATE OF name, display_name, code_client ON shops
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.display_name IS DISTINCT FROM NEW.display_name OR OLD.code_client IS DISTINCT FROM NEW.code_client)
  EXECUTE FUNCTION pec_dossiers_refresh_shop_search();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION pec_dossiers_refresh_mutual_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE pec_dossiers SET mutual_id = mutual_id WHERE mutual_id = NEW.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER mutuals_refresh_pec_search
  AFTER UPDATE OF name, code ON mutuals
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.code IS DISTINCT FROM NEW.code)
  EXECUTE FUNCTION pec_dossiers_refresh_mutual_search();
