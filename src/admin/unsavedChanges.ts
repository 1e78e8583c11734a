// What a drawer's forms tell it: each form in a drawer (AdminForm) says while it holds changes not saved, and the
// drawer frame (DrawerFrame) asks « Abandonner les modifications ? » before Escape, its close button or a click beside
// it would drop them. Outside a drawer a form tells nobody.
import { createContext } from 'react';

/** `mark(form, true)` while the form (its useId) holds changes not saved, `mark(form, false)` once it no longer does. */
export const UnsavedChangesContext = createContext<((form: string, unsaved: boolean) => void) | undefined>(undefined);
