CREATE TABLE "bulk_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"bulk_id" text NOT NULL,
	"holding_id" integer,
	"dossier_id" integer,
	"actor_id" integer,
	"action" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"run_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_runs" ADD CONSTRAINT "bulk_runs_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_runs_bulk_idx" ON "bulk_runs" USING btree ("bulk_id","id");--> statement-breakpoint
CREATE INDEX "bulk_runs_waiting_idx" ON "bulk_runs" USING btree ("holding_id","id") WHERE "bulk_runs"."state" in ('queued', 'starting');