// Identifiants: secrets are written, never read back; the list says only whether one is stored.
import { useTranslate } from 'react-admin';
import type { Particular } from '../types';

function SecretState({ value }: { value: unknown }) {
  const translate = useTranslate();
  return <>{translate(value === true ? 'pecflow.settings.secretSet' : 'pecflow.settings.secretUnset')}</>;
}

export const particular: Particular = {
  cells: { hasPassword: { sortBy: false, render: (record) => <SecretState value={record.hasPassword} /> } },
};
