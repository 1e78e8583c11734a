// Amounts as people read them: the thousands apart by narrow no-break spaces, a no-break space before €, so that an
// amount never breaks across lines (« 1 » at the end of one, « 234,56 » at the start of the next); and the messages that
// show an amount (a limit, an example of what to type) write it with the same formatter.
import { expect, test } from 'vitest';
import { formatAmount, formatDate, formatDateTime, formatEuros } from '#domain/format';
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

/** A seeded sequence (mulberry32): the same values at every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('amounts, days and times written without Intl read exactly as Intl writes them in French', () => {
  const numbers = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // The group separator as ours, whichever space this runtime's ICU writes (formatToParts was four times slower).
  const intlAmount = (n: number) => numbers.format(n).replace(/[\u00a0\u202f]/g, '\u202f');
  const random = seeded(30);
  // Half cents round away from zero on the number's decimal text (1.005 -> 1,01), as Intl does; toFixed would give 1,00.
  const amounts = [0, -0, 1e-7, -0.001, 0.005, 1.005, 2.675, 999.995, 1e15 - 0.5, 1e15, 1e20, -1234.5, NaN, Infinity];
  for (let thousandths = -20_000; thousandths <= 20_000; thousandths++) amounts.push(thousandths / 1000);
  for (let i = 0; i < 50_000; i++) amounts.push((Math.round(random() * 10 ** (1 + Math.floor(random() * 14)) * 1000) / 1000) * (random() < 0.2 ? -1 : 1));
  // Compared in a loop and asserted once: 110,000 expect() calls took over 5 s on a loaded 2-core machine.
  const wrongAmounts = amounts.filter((n) => formatAmount(n) !== intlAmount(n)).map((n) => [n, formatAmount(n), intlAmount(n)]);
  expect(wrongAmounts).toEqual([]);

  const days = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });
  const times = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const wrongMoments: string[][] = [];
  for (let i = 0; i < 20_000; i++) {
    const moment = new Date(Date.UTC(1950, 0, 1) + random() * 120 * 365 * 86_400_000);
    const intl = [`${days.format(moment)} à ${times.format(moment)}`, days.format(moment)];
    const ours = [formatDateTime(moment), formatDate(moment.toISOString())];
    if (ours[0] !== intl[0] || ours[1] !== intl[1]) wrongMoments.push([moment.toISOString(), ...ours, ...intl]);
  }
  expect(wrongMoments).toEqual([]);
});
