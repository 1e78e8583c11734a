// A link may ask for columns: beside the user's (/pec?filter=…&columns=amountDue,dateFacturationEffective: the
// dashboard's receivables show the amount due and the billing date), or alone in their order (&onlyColumns=…: a saved
// view's address, copied by « Copier le lien » or followed from its chip). They are that view's only: the address keeps
// them (react-admin's list keeps a parameter it does not know as the filters, sort and page change, and an open file
// keeps the list's), and while it does, the list's column keys are answered from memory, filled from the address, where
// the column chooser's changes go too. The user's own choice (react-admin's store, kept by the browser) is neither shown
// nor written: opening /pec plainly shows it again, unchanged.
import { useState } from 'react';
import { memoryStore, useStoreContext, type Store } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { columnsLayout, columnRanksKey, showColumns } from './columnStore';
import { COLUMNS_PARAM, ONLY_COLUMNS_PARAM } from './filters';

/**
 * The store the list reads its columns from: react-admin's own, or, while the address asks for columns, one answering
 * the list's column keys (`storeKey` and its ranks') from memory. Give it to the list with `<StoreContext.Provider>`.
 */
export function useColumnsFromUrl(storeKey: string, allColumns: string[], defaultHidden: string[]): Store {
  const base = useStoreContext();
  const params = new URLSearchParams(useLocation().search);
  const only = params.get(ONLY_COLUMNS_PARAM);
  const beside = params.get(COLUMNS_PARAM);
  const asked = only !== null ? `${ONLY_COLUMNS_PARAM}=${only}` : beside !== null ? `${COLUMNS_PARAM}=${beside}` : null;
  const viewOf = () => {
    if (asked === null) return { asked, base, storeKey, store: base };
    // Alone in their order, or beside the user's columns as they are when the link is followed, in the user's order.
    const ownHidden = base.getItem<string[]>(storeKey, defaultHidden) ?? defaultHidden;
    const { hidden, ranks } =
      only !== null
        ? columnsLayout(allColumns, only.split(','))
        : { hidden: showColumns(ownHidden, (beside ?? '').split(',')), ranks: base.getItem<number[]>(columnRanksKey(storeKey)) };
    return { asked, base, storeKey, store: viewStore(base, { [storeKey]: hidden, [columnRanksKey(storeKey)]: ranks }) };
  };
  // Made again when the address asks for other columns (or none), and only then: the chooser's changes last while the
  // view is shown (a file opened, another filter), not once it is left.
  const [view, setView] = useState(viewOf);
  if (view.asked !== asked || view.base !== base || view.storeKey !== storeKey) {
    const next = viewOf();
    setView(next);
    return next.store;
  }
  return view.store;
}

/** `base`, but for `values`' keys, read and written in memory from those values. */
export function viewStore(base: Store, values: Record<string, unknown>): Store {
  const own = memoryStore(values);
  own.setup();
  const mine = (key: string) => Object.hasOwn(values, key);
  return {
    ...base,
    // The application's store is set up and torn down by react-admin's <AdminContext>, not here.
    setup: () => undefined,
    teardown: () => undefined,
    getItem: (key, defaultValue) => (mine(key) ? own : base).getItem(key, defaultValue),
    setItem: (key, value) => (mine(key) ? own : base).setItem(key, value),
    removeItem: (key) => (mine(key) ? own : base).removeItem(key),
    removeItems: (prefix) => {
      own.removeItems(prefix);
      base.removeItems(prefix);
    },
    subscribe: (key, callback) => (mine(key) ? own : base).subscribe(key, callback),
  };
}
