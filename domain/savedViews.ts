// Saved views of the PEC list (issue 28): a name, the list's query (filters, sort, order) and its visible columns,
// private to their author or shared with the organisation. The limits and messages, for the server and the screen.
import { z } from 'zod';
import './zodLocale';

export const SAVED_VIEW_NAME_MAX = 60;
/** Views one user may keep (shared or not): a menu, not a second list. */
export const SAVED_VIEWS_PER_USER = 20;
/** Columns a view may name, and the size of its filters once written as JSON. */
const COLUMNS_MAX = 30;
const FILTER_JSON_MAX = 4000;

export const SAVED_VIEW_MESSAGES = {
  nameRequired: 'Le nom de la vue est requis',
  nameTooLong: `Le nom de la vue ne doit pas dépasser ${SAVED_VIEW_NAME_MAX} caractères`,
  nameTaken: 'Vous avez déjà une vue de ce nom',
  tooMany: `Vous avez déjà ${SAVED_VIEWS_PER_USER} vues enregistrées : supprimez-en une pour en créer une autre`,
  filterTooLarge: 'Les filtres de cette vue sont trop nombreux pour être enregistrés',
  columns: 'Colonnes invalides',
} as const;

const columnName = z.string().regex(/^[A-Za-z][\w.]{0,59}$/, SAVED_VIEW_MESSAGES.columns);

/** The list's parameters as react-admin keeps them: filter values, sort field and direction. */
export const savedViewQuerySchema = z.object({
  filter: z
    .record(z.string(), z.unknown())
    .refine((filter) => JSON.stringify(filter).length <= FILTER_JSON_MAX, SAVED_VIEW_MESSAGES.filterTooLarge)
    .default({}),
  sort: z
    .string()
    .regex(/^[A-Za-z]\w{0,59}$/)
    .optional(),
  order: z.enum(['ASC', 'DESC']).optional(),
});
export type SavedViewQuery = z.infer<typeof savedViewQuerySchema>;

const name = z
  .string({ error: SAVED_VIEW_MESSAGES.nameRequired })
  .trim()
  .min(1, SAVED_VIEW_MESSAGES.nameRequired)
  .max(SAVED_VIEW_NAME_MAX, SAVED_VIEW_MESSAGES.nameTooLong);

export const savedViewSchema = z.object({
  name,
  query: savedViewQuerySchema,
  columns: z.array(columnName).max(COLUMNS_MAX, SAVED_VIEW_MESSAGES.columns).default([]),
  shared: z.boolean().default(false),
});
