// Builders that keep resource declarations short.
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ColumnField, ComputedField, DerivedField, FieldType, ReferenceField, ReferencesField, Row, WriteOnlyField } from './types';

type Options = Partial<
  Pick<ColumnField, 'label' | 'description' | 'choices' | 'constraints' | 'default' | 'readable' | 'writable' | 'required' | 'iri' | 'secret'>
>;

const base = (options: Options) => ({ readable: true, writable: true, required: false, ...options });

export const column = (type: FieldType, col: AnyPgColumn, options: Options = {}): ColumnField => ({ kind: 'column', type, column: col, ...base(options) });
export const text = (col: AnyPgColumn, options: Options = {}) => column('string', col, options);
export const integer = (col: AnyPgColumn, options: Options = {}) => column('integer', col, options);
export const decimal = (col: AnyPgColumn, options: Options = {}) => column('decimal', col, options);
export const bool = (col: AnyPgColumn, options: Options = {}) => column('boolean', col, options);
export const date = (col: AnyPgColumn, options: Options = {}) => column('date', col, options);
export const dateTime = (col: AnyPgColumn, options: Options = {}) => column('dateTime', col, options);
/** createdAt / updatedAt: set by the server. */
export const timestamp = (col: AnyPgColumn, label?: string) => column('dateTime', col, { writable: false, label });
/** The record's creation and last change ("Créée le" for a feminine entity). */
export const timestamps = (table: { createdAt: AnyPgColumn; updatedAt: AnyPgColumn }, feminine = false) => ({
  createdAt: timestamp(table.createdAt, feminine ? 'Créée le' : 'Créé le'),
  updatedAt: timestamp(table.updatedAt, feminine ? 'Modifiée le' : 'Modifié le'),
});

export const reference = (target: string, col: AnyPgColumn, options: Options & { embed?: string[] } = {}): ReferenceField => ({
  kind: 'reference',
  target,
  column: col,
  ...base(options),
});

export const references = (target: string, link: ReferencesField['link'], options: Options = {}): ReferencesField => ({
  kind: 'references',
  target,
  link,
  ...base(options),
});

export const computed = (type: FieldType, expression: ComputedField['sql'], options: Options = {}): ComputedField => ({
  kind: 'computed',
  type,
  sql: expression,
  ...base({ ...options, writable: false }),
});

export const derived = (type: FieldType, derive: (row: Row) => unknown, { sql, ...options }: Options & { sql?: DerivedField['sql'] } = {}): DerivedField => ({
  kind: 'derived',
  type,
  derive,
  sql,
  ...base({ ...options, writable: false }),
});

/** A value the expand hook gives a single item (a file's devices), absent from lists. */
export const itemOnly = (type: FieldType, options: Options = {}): DerivedField => ({ ...derived(type, () => undefined, options), itemOnly: true });

export const writeOnly = (type: FieldType, { isSet, ...options }: Options & Pick<WriteOnlyField, 'isSet'> = {}): WriteOnlyField => ({
  kind: 'writeOnly',
  type,
  isSet,
  ...base({ ...options, readable: false }),
});
