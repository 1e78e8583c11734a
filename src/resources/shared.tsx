// Pieces several entities' particulars share.
import { useTranslate } from 'react-admin';
import { iriOf } from '#domain/iri';
import { readAuthStore } from '../session';

/** A new record of an organisation member belongs to their organisation unless they choose otherwise. */
export const ownHolding = () => {
  const holdingId = readAuthStore().user?.holdingId;
  return holdingId ? { holding: iriOf('holdings', holdingId) } : {};
};

/** The name of an embedded reference, or a French fallback when there is none ("Non défini", "Plateforme"). */
export function NameOr({ value, fallback }: { value: unknown; fallback: string }) {
  const translate = useTranslate();
  const name = (value as { name?: unknown } | null | undefined)?.name;
  return <>{typeof name === 'string' && name ? name : translate(fallback)}</>;
}
