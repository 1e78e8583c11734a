import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';

/** "Par défaut" on the default network. */
export function DefaultBadge({ value }: { value: unknown }) {
  const translate = useTranslate();
  return value === true ? <Chip size="small" color="primary" label={translate('pecflow.settings.networks.isDefault')} /> : null;
}
