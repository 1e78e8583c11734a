// Amounts as people read them: the thousands apart by narrow no-break spaces, a no-break space before €, so that an
// amount never breaks across lines (« 1 » at the end of one, « 234,56 » at the start of the next); and the messages that
// show an amount (a limit, an example of what to type) write it with the same formatter.
import { expect, test } from 'vitest';
import { formatAmount, formatEuros } from '#domain/format';
import { PAYMENT_FORM_MESSAGES, STATEMENT_MESSAGES } from '#domain/payments';
import { PRICE_MESSAGE, PRICE_RANGE_MESSAGE } from '#domain/pec';

/** A space a line may break at, between two digits or before the euro sign. */
const BREAKABLE_IN_AMOUNT = /\d[^\S\u00a0\u202f]+(?=[\d€])/;

test('an amount has narrow no-break spaces between its thousands and a no-break space before €', () => {
  expect(formatEuros(1234.56)).toBe('1\u202f234,56\u00a0€');
  expect(formatEuros('1450.5')).toBe('1\u202f450,50\u00a0€');
  expect(formatEuros(9_999_999_999.99)).toBe('9\u202f999\u202f999\u202f999,99\u00a0€');
  expect(formatEuros(-1234.5)).toBe('-1\u202f234,50\u00a0€');
  expect(formatEuros(0)).toBe('0,00\u00a0€');
  expect(formatEuros(null)).toBe('Non défini');
  expect(formatAmount(1234.56)).toBe('1\u202f234,56');
});

test('the messages that show an amount write it with the formatter: none breaks inside it', () => {
  const messages = [
    PAYMENT_FORM_MESSAGES.amountInvalid,
    PAYMENT_FORM_MESSAGES.amountTooLarge,
    PRICE_MESSAGE,
    PRICE_RANGE_MESSAGE,
    STATEMENT_MESSAGES.amount('abc'),
    STATEMENT_MESSAGES.amountTooLarge('x'),
  ];
  for (const message of messages) expect(message).not.toMatch(BREAKABLE_IN_AMOUNT);
  // The payment dialog's hint under « Montant » (« 1 » and « 234,56 » used to part at the end of a line).
  expect(PAYMENT_FORM_MESSAGES.amountInvalid).toBe('Montant illisible : un montant positif avec 2 décimales au plus (ex : 1\u202f234,56)');
  expect(PAYMENT_FORM_MESSAGES.amountTooLarge).toBe('Le montant ne peut pas dépasser 9\u202f999\u202f999\u202f999,99\u00a0€');
});
