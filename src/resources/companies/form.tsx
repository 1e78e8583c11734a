// Entreprises: the shared rules; a new company belongs to the user's organisation.
import { companySchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import type { FormParticular } from '../types';

export const form: FormParticular = { schema: { create: companySchema, update: companySchema }, defaults: ownHolding };
