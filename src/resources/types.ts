// What an entity adds to its generated screens when the API docs cannot say it (optional: a folder
// src/resources/<collection>/ with index.tsx exporting `particular` for its list and drawer, and form.tsx exporting
// `form` for its form). Everything else (names, labels, choices, columns, filters, layout, defaults, permissions)
// comes from the entity's declaration through /api/docs.jsonld.
import type { ComponentType, ReactNode } from 'react';
import type { RaRecord } from 'react-admin';
import type { ZodType } from 'zod';
import type { ConstrainedObject } from '#domain/constraints';
import type { AppDataProvider } from '../dataProvider';

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
  /** Every writable field with a value (what a PUT sends). */
  fullPayload: Record<string, unknown>;
  record?: RaRecord;
}

/** What an entity's list and drawer show beyond the docs (src/resources/<collection>/index.tsx, exporting `particular`). */
export interface Particular {
  /** Cells of their own, by column; sortBy: the order key when it is not the column, false when it cannot sort. */
  cells?: Record<string, { render: (record: RaRecord) => ReactNode; sortBy?: string | false }>;
  /** Filters of their own, by field (those the docs do not list come after the declared ones). */
  filters?: Record<string, ComponentType<{ source: string; label: string }>>;
  /** Read-only renderers of the detail view (entities opened to view). */
  show?: Record<string, ComponentType<{ record: RaRecord }>>;
  /** A screen of its own instead of the generated list and drawer (Système). */
  page?: ComponentType;
}

/**
 * What an entity's form adds (src/resources/<collection>/form.tsx, exporting `form`): its inputs, rules and save. Apart
 * from `particular`, it is loaded with the drawer's form: a list's first rows do not wait for it.
 */
export interface FormParticular {
  inputs?: Record<string, InputComponent>;
  /** A count shown as a badge on the form tab that holds the field. */
  badges?: Record<string, (values: Record<string, unknown>) => number | undefined>;
  /**
   * The entity's named rules (domain/rules.ts), applied to the schema the docs' constraints make, as the server does:
   * what no field constraint can say.
   */
  rules?: (constrained: ConstrainedObject) => { create: ZodType; update: ZodType };
  /** Values of a new record known only in the browser (the signed-in user's organisation), over the declared defaults. */
  defaults?: () => Record<string, unknown>;
  /** Replaces the generic create/update (the shop save sequence of spec section 7). */
  save?: (context: SaveContext) => Promise<RaRecord>;
  /** A toast of its own after a save, in place of '… mis à jour avec succès' (i18n keys and arguments). */
  savedToast?: (context: {
    mode: FormMode;
    saved: RaRecord;
    record?: RaRecord;
  }) => { title: string; message: string; args?: Record<string, unknown> } | undefined;
}
