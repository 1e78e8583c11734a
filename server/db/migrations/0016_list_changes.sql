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
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['holdings', 'companies', 'shops', 'users', 'user_shops', 'roles', 'user_roles', 'networks', 'mutuals', 'prescribers', 'software', 'credential_software', 'shop_credentials', 'configs'] LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed()', t || '_list_changed', t);
  END LOOP;
END
$$;
