// The particulars of the entities, looked up by collection name: the folder src/resources/<collection>/ when there is
// one (import.meta.glob finds them: no list to keep). An entity without a folder gets the generated screens only.
// The form side (form.tsx) is src/resources/forms.ts, loaded with the drawer's form.
import type { Particular } from './types';

const modules = import.meta.glob<{ particular: Particular }>('./*/index.tsx', { eager: true });

const PARTICULARS = new Map(Object.entries(modules).map(([path, module]) => [path.split('/')[1]!, module.particular]));

export const particularOf = (collection: string): Particular => PARTICULARS.get(collection) ?? {};
