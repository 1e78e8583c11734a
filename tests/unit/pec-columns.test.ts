// The PEC list's columns between react-admin's store (hidden sources, ranks) and what a saved view or a dashboard
// link names (the visible columns in their order).
import { describe, expect, it } from 'vitest';
import { memoryStore } from 'react-admin';
import { columnsLayout, showColumns, visibleColumns } from '../../src/pec/columnStore';
import { viewStore } from '../../src/pec/useColumnsFromUrl';

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

describe("a link's columns", () => {
  it('are read and changed in memory: the user’s own choice under the same key is neither shown nor written', () => {
    const base = memoryStore({ 'pec.columns': ['shop'], 'pec.columns_columnRanks': [2, 0, 1], other: 'kept' });
    base.setup();
    const view = viewStore(base, { 'pec.columns': ['numeroDossier'], 'pec.columns_columnRanks': undefined });
    const heard: unknown[] = [];
    view.subscribe('pec.columns', (value) => heard.push(value));
    expect(view.getItem('pec.columns')).toEqual(['numeroDossier']);
    expect(view.getItem('pec.columns_columnRanks')).toBeUndefined();
    // The chooser's change, in the view.
    view.setItem('pec.columns', ['numeroDossier', 'shop']);
    expect(heard).toEqual([['numeroDossier', 'shop']]);
    expect(view.getItem('pec.columns')).toEqual(['numeroDossier', 'shop']);
    expect(base.getItem('pec.columns')).toEqual(['shop']);
    expect(base.getItem('pec.columns_columnRanks')).toEqual([2, 0, 1]);
    // Every other key is the application's store.
    expect(view.getItem('other')).toBe('kept');
    view.setItem('other', 'changed');
    expect(base.getItem('other')).toBe('changed');
  });
});
