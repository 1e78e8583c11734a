// Logiciels: the shared rules; a new software belongs to the user's organisation.
import { softwareSchema } from '#domain/schemas';
import { ownHolding } from '../shared';
import type { Particular } from '../types';

export const particular: Particular = { schema: { create: softwareSchema, update: softwareSchema }, defaults: ownHolding };
