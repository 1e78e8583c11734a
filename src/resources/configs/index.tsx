// Système: a screen of its own (the settings by category, each edited by its rule), not a generated list.
import { SystemSettings } from '../../settings/SystemSettings';
import type { Particular } from '../types';

export const particular: Particular = { page: SystemSettings };
