// Entreprises: a new company belongs to the user's organisation (its rules are its declaration's constraints).
import { ownHolding } from '../shared';
import type { FormParticular } from '../types';

export const form: FormParticular = { defaults: ownHolding };
