// Logiciels: the shared rules; a new software belongs to the user's organisation.
import { softwareSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import type { FormParticular } from '../types';

export const form: FormParticular = { schema: { create: softwareSchema, update: softwareSchema }, defaults: ownHolding };
