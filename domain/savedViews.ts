// Saved views of the PEC list (issue 28): a name, the list's query (filters, sort, order) and its visible columns,
// private to their author or shared with the organisation. The limits and messages, for the server and the screen
// (no zod here: the list page loads this file; the schema is domain/savedViewSchema.ts).
export const SAVED_VIEW_NAME_MAX = 60;
/** Views one user may keep (shared or not): a menu, not a second list. */
export const SAVED_VIEWS_PER_USER = 20;
/** Columns a view may name, and the size of its filters once written as JSON. */
export const SAVED_VIEW_COLUMNS_MAX = 30;
export const SAVED_VIEW_FILTER_JSON_MAX = 4000;

export const SAVED_VIEW_MESSAGES = {
  nameRequired: 'Le nom de la vue est requis',
  nameTooLong: `Le nom de la vue ne doit pas dépasser ${SAVED_VIEW_NAME_MAX} caractères`,
  nameTaken: 'Vous avez déjà une vue de ce nom',
  tooMany: `Vous avez déjà ${SAVED_VIEWS_PER_USER} vues enregistrées : supprimez-en une pour en créer une autre`,
  filterTooLarge: 'Les filtres de cette vue sont trop nombreux pour être enregistrés',
  columns: 'Colonnes invalides',
  filterInvalid: 'Les filtres de cette vue contiennent un caractère invalide',
  sort: 'Tri invalide : indiquez le nom d’une colonne de la liste',
  shareNotAllowed: 'Partager une vue avec l’organisation demande de pouvoir modifier les demandes PEC : gardez-la pour vous',
} as const;

/** The list's parameters as react-admin keeps them: filter values, sort field and direction. */
export interface SavedViewQuery {
  filter: Record<string, unknown>;
  sort?: string;
  order?: 'ASC' | 'DESC';
}
