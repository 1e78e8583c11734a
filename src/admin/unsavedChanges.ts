// What a drawer's forms tell it, and the one question before their changes are dropped. Each form in a drawer
// (AdminForm) says while it holds changes not saved; the drawer frame (DrawerFrame) then asks « Abandonner les
// modifications ? » before anything drops them: Escape, its close button, a click beside it, the browser's back
// button, and whatever calls `useConfirmDiscard()` in it (a form's « Annuler », a tab that unmounts a form) or
// `confirmDiscardInOpenDrawer` from outside it (the PEC list's j / k, which show another file); a reload or a closed
// tab gets the browser's own question. Outside a drawer a form tells nobody and nothing asks. « Continuer la saisie »
// gives the focus back to where it was in the drawer (`useFocusToGiveBack`), whichever way the question came.
import { createContext, useCallback, useContext, useEffect, useEffectEvent, useRef, type FocusEvent } from 'react';
import { useLocation } from 'react-router-dom';

/** Runs `discard` at once, or after « Abandonner » while a form holds changes not saved. */
export type ConfirmDiscard = (discard: () => void) => void;

export interface UnsavedChanges {
  /** `mark(form, true)` while the form (its useId) holds changes not saved, `mark(form, false)` once it no longer does. */
  mark: (form: string, unsaved: boolean) => void;
  confirmDiscard: ConfirmDiscard;
}

export const UnsavedChangesContext = createContext<UnsavedChanges | undefined>(undefined);

const discardAtOnce: ConfirmDiscard = (discard) => discard();

/** Inside a drawer, its question; elsewhere `discard` runs at once. */
export function useConfirmDiscard(): ConfirmDiscard {
  return useContext(UnsavedChangesContext)?.confirmDiscard ?? discardAtOnce;
}

// The open drawer's question, for what sits outside it. One drawer is open at a time.
let openDrawer: ConfirmDiscard | undefined;

/** The open drawer, if any, asks first (a move to another file replaces what it shows). */
export const confirmDiscardInOpenDrawer: ConfirmDiscard = (discard) => (openDrawer ?? discardAtOnce)(discard);

/** The drawer frame's: while `open`, its question is the one `confirmDiscardInOpenDrawer` asks. */
export function useOpenDrawerQuestion(open: boolean, confirmDiscard: ConfirmDiscard) {
  useEffect(() => {
    if (!open) return;
    openDrawer = confirmDiscard;
    return () => {
      if (openDrawer === confirmDiscard) openDrawer = undefined;
    };
  }, [open, confirmDiscard]);
}

/** react-router's index of a history entry (its state's idx), if it made the entry. */
const historyIndex = (state: unknown): number | undefined => {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : undefined;
};

// The open drawer's hold on the history: true when it keeps a back or forward move from the router.
let historyHold: ((event: PopStateEvent) => boolean) | undefined;

/**
 * Called once before the router starts (src/main.tsx): a back or forward move goes first to the open drawer, which may
 * keep it from react-router (its listener, added after this one, then never hears of it).
 */
export function holdHistoryForDrawers() {
  window.addEventListener('popstate', (event) => {
    if (historyHold?.(event)) event.stopImmediatePropagation();
  });
}

/**
 * The browser's back (or forward) button while `holdsChanges()`: the move is undone before the router hears of it,
 * then `ask(leave)`; `leave` makes the same move again, let through this time. Continuing, the user stays on the
 * drawer's URL.
 */
export function useHistoryQuestion(open: boolean, holdsChanges: () => boolean, ask: (leave: () => void) => void) {
  const location = useLocation();
  // The drawer's entry in the history, followed as the router moves (react-router numbers its entries).
  const here = useRef<number>(undefined);
  useEffect(() => {
    here.current = historyIndex(window.history.state);
  }, [location]);
  // The next move is ours: the history back on the drawer's entry (kept from the router), or the user's leave.
  const next = useRef<'back' | 'leave'>(undefined);
  const hold = useEffectEvent((event: PopStateEvent): boolean => {
    const ours = next.current;
    next.current = undefined;
    if (ours) return ours === 'back';
    const from = here.current;
    const to = historyIndex(event.state);
    if (!holdsChanges() || from === undefined || to === undefined || to === from) return false;
    next.current = 'back';
    window.history.go(from - to);
    ask(() => {
      next.current = 'leave';
      window.history.go(to - from);
    });
    return true;
  });
  useEffect(() => {
    if (!open) return;
    const mine = (event: PopStateEvent) => hold(event);
    historyHold = mine;
    return () => {
      if (historyHold === mine) historyHold = undefined;
    };
  }, [open]);
}

/**
 * A reload, a closed tab or another address typed while `holdsChanges()`: the browser's own question (« Quitter le
 * site ? »), the only one a page may ask then (its words are the browser's).
 */
export function useLeavePageQuestion(open: boolean, holdsChanges: () => boolean) {
  const guard = useEffectEvent((event: BeforeUnloadEvent) => {
    if (holdsChanges()) event.preventDefault();
  });
  useEffect(() => {
    if (!open) return;
    const listener = (event: BeforeUnloadEvent) => guard(event);
    window.addEventListener('beforeunload', listener);
    return () => window.removeEventListener('beforeunload', listener);
  }, [open]);
}

/**
 * Where « Continuer la saisie » gives the focus back. The question gives it back to what held it as it opened: after
 * Escape, the back button or « Annuler », the field or button the user was on. A click beside the drawer has taken it
 * from there (to the drawer itself) before the question opens: `giveBack()`, called just before asking, puts it back on
 * the element last focused in the drawer's `body` (its header and content), so that the question returns there too.
 */
export function useFocusToGiveBack() {
  const body = useRef<HTMLDivElement>(null);
  const last = useRef<HTMLElement>(undefined);
  // React's onFocus bubbles from the body's elements (and from a dialog opened inside it, kept out by the DOM check).
  const onFocus = useCallback((event: FocusEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLElement && body.current?.contains(event.target)) last.current = event.target;
  }, []);
  const giveBack = useCallback(() => {
    const within = body.current;
    const element = last.current;
    if (!within || !element || within.contains(document.activeElement) || !within.contains(element)) return;
    element.focus();
  }, []);
  return { body, onFocus, giveBack };
}
