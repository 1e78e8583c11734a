// The PEC list's columns between react-admin's store (hidden sources, ranks) and what a saved view or a dashboard
// link names (the visible columns in their order).
import { describe, expect, it } from 'vitest';
import { columnsLayout, showColumns, visibleColumns } from '../../src/pec/columnStore';

const ALL = ['status', 'numeroDossier', 'shop', 'amountDue', 'datePeremption'];

describe('the column store', () => {
  it('reads the visible columns in the order shown', () => {
    expect(visibleColumns(ALL, ['amountDue', 'datePeremption'], undefined)).toEqual(['status', 'numeroDossier', 'shop']);
    expect(visibleColumns(ALL, ['shop'], [3, 0, 1])).toEqual(['amountDue', 'status', 'numeroDossier', 'datePeremption']);
  });

  it('writes back what a view names: those columns in that order, the others hidden, unknown ones ignored', () => {
    const layout = columnsLayout(ALL, ['datePeremption', 'status', 'gone', 'status']);
    expect(layout).toEqual({ hidden: ['numeroDossier', 'shop', 'amountDue'], ranks: [4, 0, 1, 2, 3] });
    expect(visibleColumns(ALL, layout.hidden, layout.ranks)).toEqual(['datePeremption', 'status']);
  });

  it('shows the columns a link asks for and keeps the user’s other choices', () => {
    expect(showColumns(['shop', 'amountDue', 'datePeremption'], ['amountDue'])).toEqual(['shop', 'datePeremption']);
  });
});
