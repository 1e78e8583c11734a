// The browser tab's title (and the history's, the bookmarks'): the open drawer's record ('Demande PEC-2026-000195'),
// else the page's own ('Relevés de paiement'), then the product's name, so that tabs and history entries of Pecflow can
// be told apart. Without react-admin: the login page uses it too.
import { useEffect } from 'react';

const PRODUCT_NAME = 'Pecflow';

/** The titles on screen, in the order they came. A drawer mounts with its page, and React runs its effect first. */
const shown: { text: string; record: boolean }[] = [];
const initial = typeof document === 'undefined' ? PRODUCT_NAME : document.title;
const show = () => {
  const top = shown.findLast((title) => title.record) ?? shown.at(-1);
  document.title = top?.text ?? initial;
};

/**
 * `title`: undefined says nothing (a drawer closed). `named`: the title names the product already ('Connexion à
 * Pecflow'): no suffix. `record`: a drawer's record, which the tab names over its page.
 */
export function useDocumentTitle(title: string | undefined, { named = false, record = false }: { named?: boolean; record?: boolean } = {}) {
  useEffect(() => {
    if (!title) return;
    const entry = { text: named ? title : `${title} — ${PRODUCT_NAME}`, record };
    shown.push(entry);
    show();
    return () => {
      shown.splice(shown.indexOf(entry), 1);
      show();
    };
  }, [title, named, record]);
}
