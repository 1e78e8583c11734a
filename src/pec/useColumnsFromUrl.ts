// A link may ask for columns: beside the user's (/pec?filter=…&columns=amountDue,dateFacturationEffective: the
// dashboard's receivables show the amount due and the billing date), or alone in their order (&onlyColumns=…: a saved
// view's address, copied by « Copier le lien » or followed from its chip). They are shown through react-admin's column
// store, the one the column chooser edits, and the parameter leaves the URL (the filters stay).
import { useEffect } from 'react';
import { useStore } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { columnsLayout, columnRanksKey, showColumns } from './columnStore';
import { COLUMNS_PARAM, ONLY_COLUMNS_PARAM } from './filters';

export function useColumnsFromUrl(storeKey: string, allColumns: string[], defaultHidden: string[]) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [hidden, setHidden] = useStore<string[]>(storeKey, defaultHidden);
  const [, setRanks] = useStore<number[] | undefined>(columnRanksKey(storeKey));
  const params = new URLSearchParams(search);
  const beside = params.get(COLUMNS_PARAM);
  const only = params.get(ONLY_COLUMNS_PARAM);
  useEffect(() => {
    if (beside === null && only === null) return;
    if (only !== null) {
      const layout = columnsLayout(allColumns, only.split(','));
      setHidden(layout.hidden);
      setRanks(layout.ranks);
    } else if (beside !== null) setHidden(showColumns(hidden, beside.split(',')));
    const rest = new URLSearchParams(search);
    rest.delete(COLUMNS_PARAM);
    rest.delete(ONLY_COLUMNS_PARAM);
    navigate({ pathname, search: rest.size ? `?${rest}` : '' }, { replace: true });
  }, [beside, only, allColumns, hidden, setHidden, setRanks, search, pathname, navigate]);
}
