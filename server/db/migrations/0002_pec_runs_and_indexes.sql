DROP INDEX "pec_dossiers_holding_created_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_shop_created_idx";--> statement-breakpoint
DROP INDEX "pec_dossiers_holding_status_idx";--> statement-breakpoint
ALTER TABLE "appareils" ADD COLUMN "classe" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD COLUMN "expiry_notified_for" date;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "run_id" integer;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "previous_status" text;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "deadline_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "actor_id" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "workflow_executions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_user_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_dossier_idx" ON "notifications" USING btree ("dossier_id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_total_idx" ON "pec_dossiers" USING btree ("holding_id","total_ttc","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_validation_idx" ON "pec_dossiers" USING btree ("holding_id","date_validation","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_search_idx" ON "pec_dossiers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "pec_dossiers_expiry_idx" ON "pec_dossiers" USING btree ("holding_id","date_peremption") WHERE "pec_dossiers"."statut_facturation" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_executions_open_idx" ON "workflow_executions" USING btree ("dossier_id") WHERE "workflow_executions"."completed_at" is null;--> statement-breakpoint
CREATE INDEX "workflow_executions_run_idx" ON "workflow_executions" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "workflow_executions_deadline_idx" ON "workflow_executions" USING btree ("deadline_at") WHERE "workflow_executions"."completed_at" is null;--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_created_idx" ON "pec_dossiers" USING btree ("holding_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_shop_created_idx" ON "pec_dossiers" USING btree ("shop_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_status_idx" ON "pec_dossiers" USING btree ("holding_id","status","created_at","id");