-- Lists of the back office are kept by each server instance until a table they read changes (server/hydra/listCache.ts).
-- Each statement that writes one of these tables tells every instance at commit, through NOTIFY: a rolled back write
-- tells nothing, and the notices of one transaction are merged by PostgreSQL. Busy tables (PEC files, audit) have none:
-- lists that read them are not kept.
CREATE FUNCTION pecflow_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pecflow_list_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "holdings_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "holdings" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "companies_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "companies" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "shops_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shops" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "users_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "user_shops_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_shops" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "roles_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "user_roles_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_roles" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "networks_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "networks" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "mutuals_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mutuals" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "prescribers_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "prescribers" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "software_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "software" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "credential_software_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "credential_software" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "shop_credentials_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "shop_credentials" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();--> statement-breakpoint
CREATE TRIGGER "configs_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "configs" FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();
