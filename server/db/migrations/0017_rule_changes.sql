-- The reference values of the PEC checks are read with every file's warnings and rarely written: each instance keeps
-- them until a write commits, told as for the back office's lists (0016_list_changes.sql, server/hydra/listCache.ts).
CREATE TRIGGER pec_rule_values_list_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pec_rule_values
  FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed();
