// The PEC list's columns as react-admin's DataTable keeps them in its store: the hidden sources under the store key,
// the display order under `{key}_columnRanks` (indexes of the declared columns). A saved view and a dashboard link
// speak of the visible columns instead, in their order. Pure functions, tested in tests/unit/pec-columns.test.ts.

/** The store key of the display order beside the hidden sources' key. */
export const columnRanksKey = (storeKey: string) => `${storeKey}_columnRanks`;

/** The visible columns, in the order shown. */
export function visibleColumns(all: string[], hidden: string[], ranks: number[] | undefined): string[] {
  const ordered = ranks ? [...ranks.map((rank) => all[rank]).filter((c): c is string => !!c), ...all.filter((_, i) => !ranks.includes(i))] : all;
  return ordered.filter((column) => !hidden.includes(column));
}

/** The store's values that show `visible` in that order (unknown names ignored), the other columns hidden after them. */
export function columnsLayout(all: string[], visible: string[]): { hidden: string[]; ranks: number[] } {
  const shown = visible.filter((column, i) => all.includes(column) && visible.indexOf(column) === i);
  const rest = all.filter((column) => !shown.includes(column));
  return { hidden: rest, ranks: [...shown, ...rest].map((column) => all.indexOf(column)) };
}

/** The hidden columns once `wanted` are shown too (a dashboard link asking for the amount due): the others as they were. */
export const showColumns = (hidden: string[], wanted: string[]) => hidden.filter((column) => !wanted.includes(column));
