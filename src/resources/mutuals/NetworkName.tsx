import { useTranslate, type RaRecord } from 'react-admin';

/** network.name, or "Non défini" for a mutuelle without network. */
export function NetworkName({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const network = record.network as { name?: string } | null | undefined;
  return <>{network?.name ?? translate('pecflow.settings.list.undefined')}</>;
}
