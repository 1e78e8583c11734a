// A second payment of the same amount on the same day as one its file holds (the two ears paid together), recorded in
// addition once the office says what distinguishes it: the server's 409 (SAME_DAY_CONFLICT) read, and the reason's
// field that 'Enregistrer un paiement' and 'Rattacher' show while their form still holds the payment refused. Named
// Payment… to be built into the `forms` chunk with those dialogs (vite.config.ts): in the `pec` chunk, its form code
// made the two chunks import each other, and the drawer failed to start.
import { useEffect, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, useTranslate } from 'react-admin';
import { SAME_DAY_CONFLICT } from '#domain/payments';
import { statusOf } from './shared';

/** How many payments of that amount and day the file holds, when a 409 says it (SAME_DAY_CONFLICT); undefined otherwise. */
export function sameDayPaymentsOf(error: unknown): number | undefined {
  const body = (error as { body?: { conflict?: string; sameDayPayments?: number } }).body;
  return statusOf(error) === 409 && body?.conflict === SAME_DAY_CONFLICT ? body.sameDayPayments : undefined;
}

/**
 * The number of payments the server counted (`count`) while the form's fields `names` still hold the payment refused
 * (`refused`, their values then), else undefined: another date, amount or file is an ordinary payment again, and the
 * refusal, which no longer applies to it, is dropped (`onStale`).
 */
export function useSameDayCount(count: number | undefined, names: string[], refused: (values: unknown[]) => boolean, onStale?: () => void) {
  const values = useWatch({ name: names }) as unknown[];
  const stale = count !== undefined && !refused(values);
  useEffect(() => {
    if (stale) onStale?.();
  }, [stale, onStale]);
  return stale ? undefined : count;
}

/** useSameDayCount read once for a dialog, so that its reason's field and its submit button never disagree. */
export function SameDayCount({
  count,
  names,
  refused,
  onStale,
  children,
}: {
  count: number | undefined;
  names: string[];
  refused: (values: unknown[]) => boolean;
  onStale: () => void;
  children: (count: number | undefined) => ReactNode;
}) {
  return children(useSameDayCount(count, names, refused, onStale));
}

/**
 * What distinguishes the payment: shown with `count` (useSameDayCount), which it puts in the form as `paiementsDuJour`,
 * where the shared schema then requires the reason; sent with it, the server records the payment unless that number
 * changed meanwhile (a second click records nothing more).
 */
export function DistinctReasonInput({ count, help }: { count: number | undefined; help: 'distinctHelp' | 'attachDistinctHelp' }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  useEffect(() => setValue('paiementsDuJour', count), [setValue, count]);
  if (count === undefined) return null;
  return (
    <TextInput
      source="motifDistinct"
      label={translate('pecflow.payments.panel.distinctReason')}
      helperText={translate(`pecflow.payments.panel.${help}`)}
      fullWidth
      margin="none"
      required
    />
  );
}
