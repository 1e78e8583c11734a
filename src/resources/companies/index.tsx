// Entreprises: the shared rules; a new company belongs to the user's organisation.
import { companySchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import type { Particular } from '../types';

export const particular: Particular = { schema: { create: companySchema, update: companySchema }, defaults: ownHolding };
