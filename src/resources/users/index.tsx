// Utilisateurs: full name sorted by last name, centres counted in the list, the invitation's state with 'Renvoyer
// l'invitation' (./invitation.tsx). The form's side is ./form.tsx.
import { useTranslate } from 'react-admin';
import { UserStatusCell } from './invitation';
import type { Particular } from '../types';

/** "{n} centre(s)", or "Aucun" (spec section 2). */
function ShopCount({ shops }: { shops: unknown }) {
  const translate = useTranslate();
  const n = Array.isArray(shops) ? shops.length : 0;
  return <>{n === 0 ? translate('pecflow.settings.list.none') : translate('pecflow.settings.shopCount', { smart_count: n })}</>;
}

export const particular: Particular = {
  cells: {
    fullName: { sortBy: 'lastName', render: (record) => <>{String(record.fullName ?? '')}</> },
    shops: { sortBy: false, render: (record) => <ShopCount shops={record.shops} /> },
    status: { render: (record) => <UserStatusCell record={record} /> },
  },
};
