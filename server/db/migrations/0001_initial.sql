CREATE TABLE "appareils" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"oreille" text NOT NULL,
	"fabricant" text,
	"marque" text,
	"modele" text,
	"prix_ttc" numeric(12, 2),
	"code_lpp" text,
	"premier_appareillage" boolean DEFAULT false NOT NULL,
	"forme" text,
	"offre_100_sante" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"holding_id" integer,
	"actor_id" integer,
	"actor_email" text,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"changes" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"name" text NOT NULL,
	"registration_number" text NOT NULL,
	"vat_number" text,
	"street" text,
	"postal_code" text,
	"city" text,
	"country" text DEFAULT 'France' NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"description" text,
	"value" jsonb,
	"value_type" text NOT NULL,
	"is_editable" boolean DEFAULT true NOT NULL,
	"category" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_software" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"software_id" integer NOT NULL,
	"login" text NOT NULL,
	"password_enc" text,
	"login_page" text NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"context_type" text DEFAULT 'general' NOT NULL,
	"context_name" text,
	"environment" text DEFAULT 'production' NOT NULL,
	"api_key_enc" text,
	"api_secret_enc" text,
	"display_identifier" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holdings" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"registration_number" text NOT NULL,
	"vat_number" text,
	"email" text,
	"phone" text,
	"street" text,
	"postal_code" text,
	"city" text,
	"country" text DEFAULT 'France' NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"succeeded" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mutuals" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"network_id" integer,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text,
	"description" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"holding_id" integer,
	"user_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"link" text,
	"dossier_id" integer,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pec_counters" (
	"holding_id" integer NOT NULL,
	"year" integer NOT NULL,
	"last_value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pec_counters_holding_id_year_pk" PRIMARY KEY("holding_id","year")
);
--> statement-breakpoint
CREATE TABLE "pec_dossiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	"network_id" integer,
	"mutual_id" integer,
	"numero_dossier" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"numero_dossier_assure" text,
	"numero_devis_assure" text,
	"commentaire" text,
	"date_creation" date,
	"total_ttc" numeric(12, 2),
	"external_id" text,
	"num_dossier_dpec" text,
	"num_pec" text,
	"prix_frais_reels" numeric(12, 2),
	"base_ss" numeric(12, 2),
	"part_ss" numeric(12, 2),
	"part_complementaire" numeric(12, 2),
	"reste_charge" numeric(12, 2),
	"date_peremption" date,
	"date_validation" timestamp with time zone,
	"date_facturation_effective" date,
	"statut_facturation" boolean DEFAULT false NOT NULL,
	"num_billing" text,
	"date_billing" date,
	"detail_refus" text,
	"search_text" text DEFAULT '' NOT NULL,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"family_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer,
	"name" text NOT NULL,
	"description" text,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_credentials" (
	"shop_id" integer NOT NULL,
	"credential_id" integer NOT NULL,
	CONSTRAINT "shop_credentials_shop_id_credential_id_pk" PRIMARY KEY("shop_id","credential_id")
);
--> statement-breakpoint
CREATE TABLE "shops" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"numero" text,
	"siret" text NOT NULL,
	"street" text,
	"postal_code" text,
	"city" text,
	"country" text DEFAULT 'France' NOT NULL,
	"email" text,
	"phone" text,
	"status" text DEFAULT 'Active' NOT NULL,
	"display_name" text,
	"finess" text,
	"rpps" text,
	"code_client" text,
	"specialite" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "software" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"type" text NOT NULL,
	"vendor" text,
	"version" text,
	"api_url" text,
	"documentation_url" text,
	"status" text DEFAULT 'Active' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "user_shops" (
	"user_id" integer NOT NULL,
	"shop_id" integer NOT NULL,
	CONSTRAINT "user_shops_user_id_shop_id_pk" PRIMARY KEY("user_id","shop_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"status" text DEFAULT 'Active' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_executions" (
	"id" serial PRIMARY KEY NOT NULL,
	"holding_id" integer NOT NULL,
	"dossier_id" integer NOT NULL,
	"workflow_name" text NOT NULL,
	"run_kind" text,
	"callback_type" text,
	"success" boolean,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"robot_response" jsonb,
	"dedupe_key" text,
	"processing_time_ms" integer
);
--> statement-breakpoint
ALTER TABLE "appareils" ADD CONSTRAINT "appareils_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_software" ADD CONSTRAINT "credential_software_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credential_software" ADD CONSTRAINT "credential_software_software_id_software_id_fk" FOREIGN KEY ("software_id") REFERENCES "public"."software"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mutuals" ADD CONSTRAINT "mutuals_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_mutual_id_mutuals_id_fk" FOREIGN KEY ("mutual_id") REFERENCES "public"."mutuals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pec_dossiers" ADD CONSTRAINT "pec_dossiers_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "roles" ADD CONSTRAINT "roles_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_credentials" ADD CONSTRAINT "shop_credentials_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_credentials" ADD CONSTRAINT "shop_credentials_credential_id_credential_software_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credential_software"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "software" ADD CONSTRAINT "software_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_shops" ADD CONSTRAINT "user_shops_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_shops" ADD CONSTRAINT "user_shops_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_holding_id_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "workflow_executions_dossier_id_pec_dossiers_id_fk" FOREIGN KEY ("dossier_id") REFERENCES "public"."pec_dossiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appareils_dossier_idx" ON "appareils" USING btree ("dossier_id");--> statement-breakpoint
CREATE INDEX "audit_logs_holding_idx" ON "audit_logs" USING btree ("holding_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_logs_entity_idx" ON "audit_logs" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_logs_created_idx" ON "audit_logs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "companies_holding_idx" ON "companies" USING btree ("holding_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "configs_key_idx" ON "configs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "credential_software_holding_idx" ON "credential_software" USING btree ("holding_id","id");--> statement-breakpoint
CREATE INDEX "credential_software_software_idx" ON "credential_software" USING btree ("software_id");--> statement-breakpoint
CREATE INDEX "login_attempts_email_idx" ON "login_attempts" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "mutuals_network_idx" ON "mutuals" USING btree ("network_id");--> statement-breakpoint
CREATE UNIQUE INDEX "networks_code_idx" ON "networks" USING btree ("code");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "pec_dossiers_numero_idx" ON "pec_dossiers" USING btree ("holding_id","numero_dossier");--> statement-breakpoint
CREATE UNIQUE INDEX "pec_dossiers_external_idx" ON "pec_dossiers" USING btree ("external_id");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_created_idx" ON "pec_dossiers" USING btree ("holding_id","created_at");--> statement-breakpoint
CREATE INDEX "pec_dossiers_shop_created_idx" ON "pec_dossiers" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "pec_dossiers_holding_status_idx" ON "pec_dossiers" USING btree ("holding_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_idx" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "roles_holding_idx" ON "roles" USING btree ("holding_id");--> statement-breakpoint
CREATE INDEX "shop_credentials_credential_idx" ON "shop_credentials" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "shops_holding_idx" ON "shops" USING btree ("holding_id","id");--> statement-breakpoint
CREATE INDEX "shops_company_idx" ON "shops" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "software_holding_idx" ON "software" USING btree ("holding_id","id");--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "user_shops_shop_idx" ON "user_shops" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "users_holding_idx" ON "users" USING btree ("holding_id","id");--> statement-breakpoint
CREATE INDEX "workflow_executions_dossier_idx" ON "workflow_executions" USING btree ("dossier_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_executions_dedupe_idx" ON "workflow_executions" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "workflow_executions_holding_idx" ON "workflow_executions" USING btree ("holding_id","started_at");