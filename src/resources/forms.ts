// The form side of the particulars (src/resources/<collection>/form.tsx: inputs, named rules, defaults, saves),
// by collection name. Imported by the generated form only, so it comes with the drawer's code, not with the lists.
import type { FormParticular } from './types';

const modules = import.meta.glob<{ form: FormParticular }>('./*/form.tsx', { eager: true });

const FORMS = new Map(Object.entries(modules).map(([path, module]) => [path.split('/')[1]!, module.form]));

const NONE: FormParticular = {};

export const formParticularOf = (collection: string): FormParticular => FORMS.get(collection) ?? NONE;
