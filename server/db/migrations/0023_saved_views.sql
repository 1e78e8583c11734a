CREATE TABLE "pec_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pec_views" ADD CONSTRAINT "pec_views_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_views" ADD CONSTRAINT "pec_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pec_views_user_name_idx" ON "pec_views" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "pec_views_holding_shared_idx" ON "pec_views" USING btree ("holding_id","name") WHERE "pec_views"."shared";--> statement-breakpoint
-- Names in French order (issue 28: Allianz before AXA, accents ignored): the lists sorted by name order by the name in
-- ICU's root collation (server/hydra/reader.ts, frenchOrder), which these indexes serve.
CREATE INDEX "mutuals_french_name_idx" ON "mutuals" USING btree ("name" COLLATE "und-x-icu", "id");--> statement-breakpoint
CREATE INDEX "networks_french_name_idx" ON "networks" USING btree ("name" COLLATE "und-x-icu", "id");--> statement-breakpoint
CREATE INDEX "shops_french_name_idx" ON "shops" USING btree ("holding_id", "name" COLLATE "und-x-icu", "id");
