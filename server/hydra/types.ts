// What a resource declaration says. The layer (routes, docs, queries, audit) is generated from it.
import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ZodType } from 'zod';
import type { Principal } from '../auth/principal';
import type { DbOrTx } from '../db/connect';
import type { AppContext } from '../context';
import type { EntityLabel, FormHints, ListHints, SettingsTab } from '#domain/adminHints';
import type { Choice, ConstrainedObject, FieldConstraints } from '#domain/constraints';
import type { PermissionDefinition, PermissionModule, ResourcePermissions } from '#domain/permissions';

export type FieldType = 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'dateTime' | 'array' | 'object';

interface FieldBase {
  /** French label of the field (forms, list headers, audit): pecflow:label in the docs. */
  label?: string;
  /** Shown in the API docs as hydra:description (French). */
  description?: string;
  /** An enumeration: its values with their French labels (pecflow:choices). */
  choices?: readonly Choice[];
  /**
   * Validation rules (pecflow:constraints). A declaration without a zod schema is validated by the schema they make
   * (domain/constraints.ts); `unique` is checked by the generic layer whatever the schema.
   */
  constraints?: FieldConstraints;
  /** The value a create that omits the field gets (the form starts from `form.defaults`). */
  default?: unknown;
  readable: boolean;
  writable: boolean;
  /** hydra:required: the form marks the field as mandatory. */
  required: boolean;
  /** schema.org term for the guessers: name (the display field), email, url. */
  iri?: 'name' | 'email' | 'url' | 'identifier';
  /** Kept out of lists and audit (encrypted or hashed values). */
  secret?: boolean;
}

/** A value stored in a column of the resource's table. */
/** A sort on a referenced record's column: `value` of the `target` row that `through` names (the file's centre's name). */
export interface RelatedOrder {
  through: AnyPgColumn;
  target: AnyPgColumn;
  value: AnyPgColumn;
}

export interface ColumnField extends FieldBase {
  kind: 'column';
  type: FieldType;
  column: AnyPgColumn;
}

/** A to-one reference: an id column, read and written as an IRI; optionally embedded as {@id, id, name...}. */
export interface ReferenceField extends FieldBase {
  kind: 'reference';
  target: string;
  column: AnyPgColumn;
  /** Columns of the target to embed in the output (besides @id and id). */
  embed?: string[];
}

/** A to-many reference through a link table, read and written as a list of IRIs. */
export interface ReferencesField extends FieldBase {
  kind: 'references';
  target: string;
  link: { table: PgTable; ownerColumn: AnyPgColumn; targetColumn: AnyPgColumn };
}

/** A read-only value computed in SQL (a count, a concatenation) and selected with the row. */
export interface ComputedField extends FieldBase {
  kind: 'computed';
  type: FieldType;
  /** A function when the value depends on who reads (a count of the records they may see). */
  sql: SQL | ((principal: Principal) => SQL);
}

/** A value derived from the serialized item in JavaScript (fullName, hasPassword...). */
export interface DerivedField extends FieldBase {
  kind: 'derived';
  type: FieldType;
  derive: (row: Row) => unknown;
  /** The same value in SQL, for list pages written by PostgreSQL (without it, the resource's lists are serialized in JavaScript). */
  sql?: SQL;
  /** Given by the expand hook on a single item only (a file's devices): absent from lists. */
  itemOnly?: boolean;
}

/** A value the client writes but never reads back (a password): handled by the resource's hooks. */
export interface WriteOnlyField extends FieldBase {
  kind: 'writeOnly';
  type: FieldType;
  /** A secret: whether a record holds one (the audit's "before" of a new one: masked, or null when there was none). */
  isSet?: (row: Row) => boolean;
}

export type Field = ColumnField | ReferenceField | ReferencesField | ComputedField | DerivedField | WriteOnlyField;

export type Row = Record<string, unknown>;

export interface Schemas {
  create: ZodType;
  update: ZodType;
}

/** Who may see which rows; writes are confined the same way. */
export interface Tenancy {
  /** SQL condition limiting the rows a principal may read; undefined = no restriction. */
  readScope(principal: Principal): SQL | undefined;
  /** Extra restriction for writes (for example: platform roles are read-only to organisations). */
  writeScope?(principal: Principal): SQL | undefined;
  /** Column that carries holding_id on this table (copied into audit rows and events). */
  holdingColumn?: AnyPgColumn;
  /**
   * Decides holding_id for a new (existing undefined) or changed row from the validated input. Throws a 422 violation
   * when the input names an organisation the principal may not write to. Returns undefined to leave the column as it is.
   */
  assignHolding?(principal: Principal, input: Row, tx: DbOrTx, existing: Row | undefined): Promise<number | undefined>;
}

export interface Reference {
  /** Refuse the delete while rows of `table` point at the record. */
  table: PgTable;
  column: AnyPgColumn;
  /** Extra condition (for example: not archived). */
  where?: SQL;
  message: (count: number) => string;
}

export interface WriteContext {
  app: AppContext;
  principal: Principal;
  tx: DbOrTx;
}

export interface Hooks {
  /** Turns validated input into column values the generic mapping cannot (hash a password, encrypt a secret). */
  beforeWrite?(ctx: WriteContext, input: Row, values: Row, existing: Row | undefined): Promise<void> | void;
  /** Runs in the same transaction after the row is written (exclusive flags, side tables). */
  afterWrite?(ctx: WriteContext, id: number, input: Row, existing: Row | undefined): Promise<void> | void;
  /** Refuses a delete for a reason of its own (throw an ApiError). */
  beforeDelete?(ctx: WriteContext, existing: Row): Promise<void> | void;
  /** The audit's action of an update when it is more than a change of fields ('archive', 'restore'); undefined: as called. */
  auditAction?(input: Row, existing: Row): string | undefined;
  /**
   * Adds to serialized items what the generic mapping cannot (nested lists such as a file's devices).
   * `rows` are the raw rows the items came from, in the same order. 'item' is a single GET or a write's answer.
   */
  expand?(ctx: WriteContext, items: Row[], rows: Row[], mode: 'list' | 'item'): Promise<void> | void;
  /**
   * What expand() gives in list mode, as SQL JSON values by key (correlated with the resource's table): PostgreSQL then
   * writes list pages whole. Without it, the lists of a resource with an expand hook are serialized in JavaScript.
   */
  listJson?: Record<string, SQL>;
  /**
   * Values read with a single item (GET of one record, a write's answer), as SQL by key, correlated with the
   * resource's table by its unaliased name: expand() finds them in its row as `__item_{key}`, read in the same query
   * as the record. Only rows read by get() carry them: expand() in 'item' mode is given no other.
   */
  itemRead?: Record<string, SQL>;
}

export interface ResourceDeclaration {
  /** Collection name: /api/{name}. The entity's only name (route, react-admin resource, i18n). */
  name: string;
  /** Hydra class: #Holding. */
  className: string;
  /** French names, for the docs, the screens, messages ("Organisation introuvable.") and the permission catalogue. */
  label: EntityLabel;
  table: PgTable;
  idColumn: AnyPgColumn;
  fields: Record<string, Field>;
  /**
   * Validation of a create (POST) and a full replace (PUT) that is no field's constraints: read-only resources and the
   * PEC files' rules (PATCH uses its partial form). Others are validated by the schema their fields' constraints,
   * choices and defaults make, given to `rules` when some rule is beyond them.
   */
  schema?: Schemas;
  /**
   * What no field constraint can say, named in domain/rules.ts (cross-field rules, a user's password on creation, a
   * role's keys checked against the catalogue): given the schema the constraints make, returns the create and update
   * schemas (the update an object, whose partial form validates a PATCH).
   */
  rules?: (constrained: ConstrainedObject, api: { permissionCatalogue: readonly PermissionDefinition[] }) => Schemas;
  /** The keys of its actions: settingsPermissions('settings.holdings') (domain/resources.ts) for a settings entity. */
  permissions: ResourcePermissions;
  /**
   * The permission catalogue's module of its keys ("Voir les organisations"...), derived from the label; entities
   * sharing keys (mutuals and networks: settings.mutuelles.*) are named together. Absent when the keys are listed in
   * domain/permissions.ts (PEC files, system settings, audit).
   */
  permissionModule?: PermissionModule;
  settingsTab?: SettingsTab;
  list?: ListHints;
  form?: FormHints;
  /**
   * Reading without permissions.view (list, item, history): 'everyone' signed in (platform reference data, domain.md),
   * or the holders of another permission within a narrower scope (centres: pec.view, their assigned centres only).
   */
  readAccess?: 'everyone' | { permission: string; scope(principal: Principal): SQL | undefined };
  tenancy: Tenancy;
  /** Columns searched by `search=` (case- and accent-insensitive). */
  search?: AnyPgColumn[];
  /** Replaces the column search with a condition of its own (for example a trigram-indexed search column). */
  searchCondition?(term: string): SQL;
  /** Exact filters: query key -> column. `field[]=a&field[]=b` filters on several values. */
  filters?: Record<string, AnyPgColumn>;
  /** Range filters on dates: `key[after]`, `key[before]` (and dateFrom/dateTo for the first one). */
  rangeFilters?: Record<string, AnyPgColumn>;
  /** Filters that are a condition rather than a column: query key -> the condition for the value given (and reader: `suiviPar=me`). */
  conditionFilters?: Record<string, (value: string, principal: Principal) => SQL>;
  /**
   * Condition filters applied with this value when the query does not name them (PEC files leave archived ones out
   * unless `archived=true|all` is asked). Single items are read whatever they say.
   */
  defaultFilters?: Record<string, string>;
  /**
   * Sortable fields: query key -> column, an expression of the row, or a referenced record's column (RelatedOrder: a
   * centre's name); the first entry of defaultOrder applies when none is asked. An expression or a referenced column
   * sorts its empty values last, as a nullable column does.
   */
  order: Record<string, AnyPgColumn | SQL | RelatedOrder>;
  /** The order when none is asked, and of the rows another sort leaves tied (then the id), unless idsFollowDefaultOrder. */
  defaultOrder: [string, 'asc' | 'desc'];
  /**
   * true: the default order is the ids' own (creation order): rows another sort leaves tied come by id alone, which the
   * sorts' indexes end with (the PEC list), instead of by the default order first.
   */
  idsFollowDefaultOrder?: true;
  /** Order keys of names sorted in French (case and accents ignored: Allianz before AXA), on an index of that key. */
  frenchOrder?: string[];
  /** 'hard': DELETE removes the row; 'soft': DELETE and PATCH /archive set deleted_at. */
  deletion: { mode: 'hard'; refuseWhileReferenced?: Reference[] } | { mode: 'soft'; column: AnyPgColumn } | { mode: 'none' };
  /**
   * false: its tables get no `pecflow_list_changed` trigger, so its lists are never kept (a busy table, written by
   * every PEC action). Otherwise the trigger is added at start (server/hydra/listTriggers.ts).
   */
  keptLists?: false;
  /** Collections that are never paginated (credentials): the list shows them whole and searches in the browser. */
  paginated?: boolean;
  /** false: `pagination=false` is refused (large collections that every reader could otherwise pull whole). */
  unpaginatedAllowed?: boolean;
  /** Exposes GET /{name}/{id}/history from the audit trail. */
  versioned?: boolean;
  /** Operations this resource does not offer. */
  readOnly?: boolean;
  creatable?: boolean;
  /**
   * Created by a route of its own as multipart/form-data (API Platform's file-upload convention: a document's `file`):
   * the docs declare POST on the collection, the generic JSON POST is not registered (give `creatable: false`).
   */
  upload?: true;
  /** false: no PUT or PATCH (a document is deleted and added again, never changed). */
  updatable?: false;
  hooks?: Hooks;
  /** The audit's entity name ("holding" in "holding.create"). */
  auditName: string;
  /**
   * The field whose value names the record in the audit trail (a PEC file's number): kept with each entry, so that a
   * deleted record is still named by what people knew it as, not by its internal id.
   */
  auditLabel?: string;
}
