// What a back-office entity declares about its screens: only what the API documentation cannot say.
// Field types, required marks and reference pickers come from the Hydra documentation (see src/settings/schema.ts);
// French names and field labels come from `resources.<name>` in src/i18n/fr.ts.
import type { ComponentType, ReactNode } from 'react';
import type { RaRecord } from 'react-admin';
import type { ZodType } from 'zod';
import type { AppDataProvider } from '../dataProvider';

export type SettingsSection = 'holdings' | 'companies' | 'shops' | 'users' | 'roles' | 'mutuelles' | 'networks' | 'software' | 'credentials' | 'audit';

export interface Choice {
  id: string;
  /** An i18n key or a French text. */
  name: string;
}

export interface Column {
  source: string;
  /** A cell of its own; without it the cell is guessed from the field's type in the API documentation. */
  render?: (record: RaRecord) => ReactNode;
  /** The order key when it is not `source`; false when the column cannot be sorted. */
  sortBy?: string | false;
}

/** The filters of the list bar (hidden on small screens). */
export type FilterDefinition =
  | { kind: 'choice'; source: string; choices: readonly Choice[] }
  | { kind: 'reference'; source: string; reference: string; optionText: string }
  | { kind: 'dateRange'; source: string }
  | { kind: 'custom'; source: string; component: ComponentType<{ source: string }> };

export interface FormTab {
  /** i18n key of the tab's label. */
  label: string;
  fields?: string[];
  /** A tab with content of its own (the shop credential editor). */
  component?: ComponentType<FormPartProps>;
  /** A count shown as a badge on the tab, from the form's values. */
  badge?: (values: Record<string, unknown>) => number | undefined;
}

export interface FormLayout {
  /** The order of the fields; writable fields the layout does not name come after them. */
  fields?: string[];
  tabs?: FormTab[];
  /** Fields spanning both columns. */
  fullWidth?: string[];
  /** Writable fields deliberately not edited in the form. */
  exclude?: string[];
  /** Text fields edited on several lines. */
  multiline?: string[];
}

export type FormMode = 'create' | 'edit';

export interface FormPartProps {
  mode: FormMode;
  record?: RaRecord;
  /** Without the update permission the form only shows. */
  readOnly?: boolean;
}

/** An input of its own for one field (rendered in place of the guessed one). */
export type InputComponent = ComponentType<FormPartProps & { source: string; label: string; required: boolean }>;

export interface SaveContext {
  mode: FormMode;
  dataProvider: AppDataProvider;
  /** The form's values as typed. */
  values: Record<string, unknown>;
  /** What the generic save would send: writable fields only; on edit, only the changed ones. */
  payload: Record<string, unknown>;
  /** Every writable field with a value (what a PUT sends). */
  fullPayload: Record<string, unknown>;
  record?: RaRecord;
}

export interface ResourceConfig {
  /** The API collection, /api/{name}. */
  name: string;
  /** The settings tab: /settings/{section}. */
  section: SettingsSection;
  /** Grammatical gender of the French name ("Nouvelle organisation", "créée"). */
  feminine?: boolean;
  /** The list's columns (spec section 2). Readable fields neither listed here nor in listExclude are added after them. */
  columns: Column[];
  listExclude?: string[];
  filters?: FilterDefinition[];
  /** Fields the search matches when the list is filtered in the browser (unpaginated lists). */
  searchable: string[];
  /** false: the whole collection at once, searched in the browser (credentials). */
  paginated?: boolean;
  /** The list asks only for the signed-in user's organisation when they have one (spec section 2). */
  scopeToHolding?: boolean;
  form?: FormLayout;
  /** Enumerations: the API documentation does not carry them (hydra-contract.md, point 10). A function sees the record. */
  choices?: Record<string, readonly Choice[] | ((record?: RaRecord) => readonly Choice[])>;
  inputs?: Record<string, InputComponent>;
  /** Read-only renderers, for resources without an edit operation (the audit trail). */
  show?: Record<string, ComponentType<{ record: RaRecord }>>;
  /** The shared zod schemas of src/domain/, run in the browser on change. */
  schema?: { create: ZodType; update: ZodType };
  /** The values of a new record (a function: read when the form opens). */
  defaults?: () => Record<string, unknown>;
  /** Replaces the generic create/update call (the shop save sequence of spec section 7). */
  save?: (context: SaveContext) => Promise<RaRecord>;
  /** A toast of its own after a save, in place of the generic "... mis à jour avec succès" (i18n keys and arguments). */
  savedToast?: (context: { mode: FormMode; saved: RaRecord; record?: RaRecord }) => { title: string; message: string; args?: Record<string, unknown> } | undefined;
}
