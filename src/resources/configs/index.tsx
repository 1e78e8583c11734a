// Système: a screen of its own (the settings by category, each edited by its rule), not a generated list; loaded when
// shown.
import { lazy } from 'react';
import type { Particular } from '../types';

const SystemSettings = lazy(() => import('../../settings/SystemSettings').then((m) => ({ default: m.SystemSettings })));

export const particular: Particular = { page: SystemSettings };
