// The `pecflow_list_changed` trigger (migration 0016, server/hydra/listCache.ts) on every table a declaration's lists
// read: its own and its link tables. Created at start for the tables that lack it, so that a new entity's lists are
// kept without a hand-written step in its migration; a busy table opts out with `keptLists: false`.
import { getTableName } from 'drizzle-orm';
import type { Database } from '../db/connect';
import type { ResourceDeclaration } from './types';

/** The tables whose changes a declaration's lists must hear of: its table and the link tables of its references. */
export function listTriggerTables(declarations: readonly ResourceDeclaration[]): string[] {
  const tables = new Set<string>();
  for (const decl of declarations) {
    if (decl.keptLists === false) continue;
    tables.add(getTableName(decl.table));
    for (const field of Object.values(decl.fields)) if (field.kind === 'references') tables.add(getTableName(field.link.table));
  }
  return [...tables].sort();
}

/** The tables carrying the trigger now. */
export async function tablesWithListTrigger(database: Pick<Database, 'query'>): Promise<Set<string>> {
  const rows = await database.query<{ table: string }>(
    `select distinct c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
     where p.proname = 'pecflow_list_changed'`,
  );
  return new Set(rows.map((r) => r.table));
}

/**
 * Adds the trigger to the declared tables that lack it (idempotent: a table that has it is left alone, so a start takes
 * no lock on it). Run after the migrations, under their lock. Returns the tables it was added to.
 */
export async function ensureListTriggers(database: Pick<Database, 'query'>, declarations: readonly ResourceDeclaration[]): Promise<string[]> {
  const present = await tablesWithListTrigger(database);
  const missing = listTriggerTables(declarations).filter((table) => !present.has(table));
  for (const table of missing) {
    const name = `"${`${table}_list_changed`.replaceAll('"', '""')}"`;
    const quoted = `"${table.replaceAll('"', '""')}"`;
    // DROP … IF EXISTS first: a trigger of that name calling another function would make CREATE fail.
    await database.query(`DROP TRIGGER IF EXISTS ${name} ON ${quoted}`);
    await database.query(
      `CREATE TRIGGER ${name} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${quoted} FOR EACH STATEMENT EXECUTE FUNCTION pecflow_list_changed()`,
    );
  }
  return missing;
}
