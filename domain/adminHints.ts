// What a declaration says of its entity's screens, served in the API docs as `pecflow:admin` (ADMIN-CONTRACT): the
// server's declarations write these shapes and the browser's generated screens read them.

/** French names of an entity: "Organisation", "Organisations", feminine ("Nouvelle organisation", "créée"). */
export interface EntityLabel {
  singular: string;
  plural: string;
  feminine?: boolean;
}

/** A filter of the list bar: an enumeration, a reference picker or a date range. */
export interface ListFilter {
  field: string;
  kind: 'choice' | 'reference' | 'dateRange';
}

/** How the generated list shows the entity (spec section 2). */
export interface ListHints {
  /** The columns, in order: field names (a reference shows its target's name). */
  columns: string[];
  filters?: ListFilter[];
  searchPlaceholder?: string;
  /** The empty state's text. */
  empty: string;
  /** The list asks only for the signed-in user's organisation when they have one. */
  scopeToHolding?: boolean;
}

/** A list's order as react-admin writes it: the docs serve each list's default one (the declaration's `defaultOrder`). */
export interface ListSort {
  field: string;
  order: 'ASC' | 'DESC';
}

/** How the generated drawer's form lays the entity out. */
export interface FormHints {
  /** The order of the fields; writable fields not named come after them. */
  fields?: string[];
  tabs?: { label: string; fields: string[] }[];
  /** Fields spanning both columns. */
  fullWidth?: string[];
  /** Text fields edited on several lines. */
  multiline?: string[];
  /** The values of a new record; also what the server assumes when a create omits them (constraint-built schemas). */
  defaults?: Record<string, unknown>;
  /** The choices the form offers for an enumeration, when fewer than it accepts (a record keeps its own value). */
  offer?: Record<string, string[]>;
  /** A click on a row opens the record to edit (default) or to view. */
  openIn?: 'edit' | 'view';
}

/** The entity is a tab of the settings page: /settings/{name}. Its label is the plural unless given; its permission the view key. */
export interface SettingsTab {
  position: number;
  label?: string;
  /** Former paths that lead to the tab (/settings/mutuelles → /settings/mutuals). */
  aliases?: string[];
}
