// Organisations: the shared rules of domain/schemas.ts (the rest is declared in server/resources/holdings.ts).
import { holdingSchema } from '#domain/schemas';
import type { Particular } from '../types';

export const particular: Particular = { schema: { create: holdingSchema, update: holdingSchema } };
