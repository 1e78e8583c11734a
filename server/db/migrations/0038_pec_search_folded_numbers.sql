-- ==================== Hand-written (PEC search): the three numbers a statement names, folded, in the search text ====================
-- The PEC list's search finds a file by its PEC number, invoice number or Pecflow ID however they are typed, as a
-- statement names them ("pec 2026 000123", "santeclair/972783118" for PEC-2026-000123, SANTECLAIR-972783118). The
-- search text of migration 0032 gains these three numbers folded (pecflow_fold, migration 0037), lower-cased as the
-- rest; the server looks for the folded term in it besides the term itself (server/resources/pecDossiers.ts). Both are
-- LIKE '%…%', a part of a number as before, served by the trigram index: the btree indexes of the folded numbers
-- (migration 0037) find a whole number only.
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
    (SELECT concat_ws(' ', m.name, m.code) FROM mutuals m WHERE m.id = NEW.mutual_id),
    pecflow_fold(NEW.numero_dossier),
    pecflow_fold(NEW.num_pec),
    pecflow_fold(NEW.num_billing)
  )));
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- Every file's search text again (the trigger computes it, and every file has a Pecflow ID).
UPDATE pec_dossiers SET numero_dossier = numero_dossier;
--> statement-breakpoint
-- ==================== End of the hand-written block ====================
