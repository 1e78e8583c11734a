-- One saved view name per author whatever its letter case. Views saved before under names that differ only by case
-- keep theirs with their number added ("mes dossiers (12)"), so that none is lost.
UPDATE "pec_views" AS v SET "name" = v."name" || ' (' || v."id" || ')'
  WHERE EXISTS (SELECT 1 FROM "pec_views" o WHERE o."user_id" = v."user_id" AND lower(o."name") = lower(v."name") AND o."id" < v."id");--> statement-breakpoint
DROP INDEX "pec_views_user_name_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "pec_views_user_name_idx" ON "pec_views" USING btree ("user_id",lower("name"));
