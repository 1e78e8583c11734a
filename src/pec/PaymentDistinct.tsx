// A payment refused by the server (409) in 'Enregistrer un paiement' and 'Rattacher', and sent again once the office
// says why: a second payment of the same amount on the same day as one its file holds (the two ears paid together,
// SAME_DAY_CONFLICT), recorded in addition with what distinguishes it; an amount far above what the file was to receive
// (AMOUNTS_TO_CHECK_CONFLICT), recorded once confirmed. The refusal holds while the form still holds the payment refused. Named
// Payment… to be built into the `forms` chunk with those dialogs (vite.config.ts): in the `pec` chunk, its form code
// made the two chunks import each other, and the drawer failed to start.
import { useEffect, type ReactNode } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextInput, useTranslate } from 'react-admin';
import { AMOUNT_CHECKED_FIELD, AMOUNTS_TO_CHECK_CONFLICT, SAME_DAY_CONFLICT } from '#domain/payments';
import { statusOf } from './shared';

/** How many payments of that amount and day the file holds, when a 409 says it (SAME_DAY_CONFLICT); undefined otherwise. */
export function sameDayPaymentsOf(error: unknown): number | undefined {
  const body = (error as { body?: { conflict?: string; sameDayPayments?: number } }).body;
  return statusOf(error) === 409 && body?.conflict === SAME_DAY_CONFLICT ? body.sameDayPayments : undefined;
}

/** A 409 that asks for the amount to be confirmed (AMOUNTS_TO_CHECK_CONFLICT). */
export function isAmountToCheck(error: unknown): boolean {
  const body = (error as { body?: { conflict?: string } }).body;
  return statusOf(error) === 409 && body?.conflict === AMOUNTS_TO_CHECK_CONFLICT;
}

/**
 * What the server said of the payment it refused: its words, how many payments of that amount and day the file holds
 * (`sameDay`), whether the amount is to be confirmed. What was sent with the payment stays said: the reason given for
 * a distinct payment, then refused for its amount, is sent again with its confirmation.
 */
export interface PaymentRefusal {
  text: string;
  sameDay?: number;
  amountToCheck: boolean;
}

export const paymentRefusalOf = (error: unknown, text: string, sent: { paiementsDuJour?: number; montantVerifie?: boolean }): PaymentRefusal => ({
  text,
  sameDay: sameDayPaymentsOf(error) ?? sent.paiementsDuJour,
  amountToCheck: isAmountToCheck(error) || sent.montantVerifie === true,
});

/**
 * The refusal while the form's fields `names` still hold the payment refused (`refused`, their values then), else
 * undefined: another date, amount or file is an ordinary payment again, and the refusal, which no longer applies to
 * it, is dropped (`onStale`).
 */
function useWhileRefused<T>(refusal: T | undefined, names: string[], refused: (values: unknown[]) => boolean, onStale?: () => void) {
  const values = useWatch({ name: names }) as unknown[];
  const stale = refusal !== undefined && !refused(values);
  useEffect(() => {
    if (stale) onStale?.();
  }, [stale, onStale]);
  return stale ? undefined : refusal;
}

/** useWhileRefused read once for a dialog, so that its alert, its reason's field and its submit button never disagree. */
export function WhileRefused({
  refusal,
  names,
  refused,
  onStale,
  children,
}: {
  refusal: PaymentRefusal | undefined;
  names: string[];
  refused: (values: unknown[]) => boolean;
  onStale: () => void;
  children: (refusal: PaymentRefusal | undefined) => ReactNode;
}) {
  return children(useWhileRefused(refusal, names, refused, onStale));
}

/** The amount confirmed (AMOUNT_CHECKED_FIELD) while the refusal that asked for it holds: sent with the payment. */
export function AmountChecked({ refusal }: { refusal: PaymentRefusal | undefined }) {
  const { setValue } = useFormContext();
  const checked = refusal?.amountToCheck === true;
  useEffect(() => setValue(AMOUNT_CHECKED_FIELD, checked || undefined), [setValue, checked]);
  return null;
}

/**
 * What distinguishes the payment: shown with `count` (the refusal's `sameDay`), which it puts in the form as `paiementsDuJour`,
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
