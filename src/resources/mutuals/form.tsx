// Mutuelles: the shared rules.
import { mutualSchema } from '#domain/schemas';
import type { FormParticular } from '../types';

export const form: FormParticular = { schema: { create: mutualSchema, update: mutualSchema } };
