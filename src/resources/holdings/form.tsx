// Organisations: the shared rules of domain/schemas.ts (the rest is declared in server/resources/holdings.ts).
import { holdingSchema } from '#domain/schemas';
import type { FormParticular } from '../types';

export const form: FormParticular = { schema: { create: holdingSchema, update: holdingSchema } };
