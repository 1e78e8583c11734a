// A link may ask for columns (/pec?filter=…&columns=amountDue,dateFacturationEffective: the dashboard's receivables
// show the amount due and the billing date): they are shown through react-admin's column store, the one the column
// chooser edits, and the parameter leaves the URL (the filters stay).
import { useEffect } from 'react';
import { useStore } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { showColumns } from './columnStore';

export const COLUMNS_PARAM = 'columns';

export function useColumnsFromUrl(storeKey: string, defaultHidden: string[]) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [hidden, setHidden] = useStore<string[]>(storeKey, defaultHidden);
  const wanted = new URLSearchParams(search).get(COLUMNS_PARAM);
  useEffect(() => {
    if (wanted === null) return;
    setHidden(showColumns(hidden, wanted.split(',')));
    const params = new URLSearchParams(search);
    params.delete(COLUMNS_PARAM);
    navigate({ pathname, search: params.size ? `?${params}` : '' }, { replace: true });
  }, [wanted, hidden, setHidden, search, pathname, navigate]);
}
