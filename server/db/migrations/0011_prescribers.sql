CREATE TABLE "prescribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"civility" text NOT NULL,
	"last_name" text NOT NULL,
	"first_name" text,
	"specialty" text NOT NULL,
	"rpps" text NOT NULL,
	"city" text,
	"phone" text,
	"email" text,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prescribers" ADD CONSTRAINT "prescribers_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prescribers_holding_rpps_idx" ON "prescribers" USING btree ("holding_id","rpps");--> statement-breakpoint
CREATE INDEX "prescribers_holding_name_idx" ON "prescribers" USING btree ("holding_id","last_name","id");--> statement-breakpoint
CREATE INDEX "prescribers_name_idx" ON "prescribers" USING btree ("last_name","id");