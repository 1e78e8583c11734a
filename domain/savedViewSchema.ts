// The saved view's schema (domain/savedViews.ts has its limits and messages), validated by the server.
import { z } from 'zod';
import './zodLocale';
import { SAVED_VIEW_COLUMNS_MAX, SAVED_VIEW_FILTER_JSON_MAX, SAVED_VIEW_MESSAGES, SAVED_VIEW_NAME_MAX } from './savedViews';

const columnName = z.string().regex(/^[A-Za-z][\w.]{0,59}$/, SAVED_VIEW_MESSAGES.columns);

const savedViewQuerySchema = z.object({
  filter: z
    .record(z.string(), z.unknown())
    .refine((filter) => JSON.stringify(filter).length <= SAVED_VIEW_FILTER_JSON_MAX, SAVED_VIEW_MESSAGES.filterTooLarge)
    // PostgreSQL's jsonb holds no NUL character, in a key or a value.
    .refine((filter) => !JSON.stringify(filter).includes('\\u0000'), SAVED_VIEW_MESSAGES.filterInvalid)
    .default({}),
  sort: z
    .string()
    .regex(/^[A-Za-z]\w{0,59}$/, SAVED_VIEW_MESSAGES.sort)
    .optional(),
  order: z.enum(['ASC', 'DESC']).optional(),
});

const name = z
  .string({ error: SAVED_VIEW_MESSAGES.nameRequired })
  .trim()
  .min(1, SAVED_VIEW_MESSAGES.nameRequired)
  .max(SAVED_VIEW_NAME_MAX, SAVED_VIEW_MESSAGES.nameTooLong);

export const savedViewSchema = z.object({
  name,
  query: savedViewQuerySchema,
  columns: z.array(columnName).max(SAVED_VIEW_COLUMNS_MAX, SAVED_VIEW_MESSAGES.columns).default([]),
  shared: z.boolean().default(false),
});
