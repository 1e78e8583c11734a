// defineResource(): a declaration from what only its author knows, the rest derived from its name, table and fields.
import { getTableColumns } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ResourceDeclaration } from './types';

/** What has a default: the names from `name`, the id column and the sort from the table and fields, a hard delete. */
type Derived = 'className' | 'auditName' | 'idColumn' | 'order' | 'defaultOrder' | 'deletion';

/**
 * A declaration as written: `name`, `label`, `table`, `fields`, `permissions` and `tenancy` are required (the type
 * checker says which is missing); the keys of `Derived` may be given to override their default.
 */
export type ResourceDefinition = Omit<ResourceDeclaration, Derived> & Partial<Pick<ResourceDeclaration, Derived>>;

/** 'pec_dossiers' -> ['pec', 'dossier']: the collection's words, the last one singular. */
function singularWords(name: string): string[] {
  const words = name.split('_');
  const last = words.pop()!;
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.endsWith('s') && !last.endsWith('ss') ? last.slice(0, -1) : last;
  return [...words, singular];
}

/** The Hydra class of a collection: 'pec_dossiers' -> 'PecDossier', 'companies' -> 'Company'. */
export const classNameOf = (name: string) =>
  singularWords(name)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** The audit's entity name of a collection: 'pec_dossiers' -> 'pec_dossier'. */
export const auditNameOf = (name: string) => singularWords(name).join('_');

export function defineResource(definition: ResourceDefinition): ResourceDeclaration {
  const idColumn = definition.idColumn ?? (getTableColumns(definition.table) as Record<string, AnyPgColumn | undefined>).id;
  if (!idColumn) throw new Error(`${definition.name}: sa table n’a pas de colonne id, donnez idColumn`);
  // Sortable by default: the list's columns stored in the table, the creation date, the id.
  const order =
    definition.order ??
    Object.fromEntries(
      [...(definition.list?.columns ?? []), 'createdAt']
        .map((key) => [key, definition.fields[key]] as const)
        .flatMap(([key, field]) => (field?.kind === 'column' ? [[key, field.column] as const] : []))
        .concat([['id', idColumn]]),
    );
  // The display field (iri 'name') ascending, or the id.
  const display = Object.entries(definition.fields).find(([key, field]) => field.iri === 'name' && key in order)?.[0];
  return {
    ...definition,
    className: definition.className ?? classNameOf(definition.name),
    auditName: definition.auditName ?? auditNameOf(definition.name),
    idColumn,
    order,
    defaultOrder: definition.defaultOrder ?? [display ?? 'id', 'asc'],
    deletion: definition.deletion ?? { mode: 'hard' },
  };
}
