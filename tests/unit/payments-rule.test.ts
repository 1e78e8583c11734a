// The one rule of a file's payment (issue 25, domain/payments.ts), shared by the server (which stores its result) and
// the browser (the drawer's total, 'Trop-perçu', the dialog's pre-fill): what was paid gives the state, line after line
// or from the history alike; a cancelled payment no longer counts; the key that makes two statement lines the same.
import { describe, expect, it } from 'vitest';
import { decimalComma } from '#domain/format';
import {
  amountDue,
  isPaidByHand,
  overpaymentOf,
  paidAmount,
  payFile,
  paymentStateFromHistory,
  paymentStateOf,
  receivableAgeOf,
  receivableAgeRange,
  RECEIVABLE_AGES,
  receivedLineKey,
} from '#domain/payments';

describe('a file’s payment state', () => {
  it('follows what was paid: nothing, partly (still billed, the amount due), in full, over-paid', () => {
    expect(paymentStateOf(500, null, null)).toEqual({ status: 'billed', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null });
    expect(paymentStateOf(500, 120.1, '2026-11-02')).toEqual({
      status: 'billed',
      montantPaye: 120.1,
      datePaiement: '2026-11-02',
      paiementPartiel: true,
      montantDu: 379.9,
    });
    expect(paymentStateOf(500, 500, '2026-11-03')).toEqual({
      status: 'paid',
      montantPaye: 500,
      datePaiement: '2026-11-03',
      paiementPartiel: false,
      montantDu: 0,
    });
    expect(paymentStateOf(500, 530, '2026-11-03')).toMatchObject({ status: 'paid', montantDu: 0 });
    // No amount expected from the insurer: any payment settles the file.
    expect(paymentStateOf(null, 10, '2026-11-03')).toMatchObject({ status: 'paid', montantDu: 0 });
  });

  it('is the same whether payments are added one after the other or summed from the history, cancelled ones left out', () => {
    const payments = [
      { amount: 100.1, paymentDate: '2026-11-05' },
      { amount: 200.2, paymentDate: '2026-11-02' },
      { amount: 999, paymentDate: '2026-11-20', reversedAt: '2026-11-21T10:00:00Z' },
      { amount: 0.3, paymentDate: '2026-11-04' },
    ];
    let state = paymentStateOf(700, null, null);
    for (const p of payments.filter((p) => !p.reversedAt)) state = payFile(state, 700, p.amount, p.paymentDate).next;
    expect(paymentStateFromHistory(700, payments)).toEqual(state);
    expect(state).toMatchObject({ montantPaye: 300.6, datePaiement: '2026-11-05', montantDu: 399.4, paiementPartiel: true });
    expect(paidAmount(payments)).toBe(300.6);
    expect(paidAmount([{ amount: 5, paymentDate: '2026-11-01', reversedAt: '2026-11-02' }])).toBeNull();
  });

  it('keeps a file marked paid by hand paid, owing nothing', () => {
    expect(isPaidByHand({ status: 'paid', montantPaye: 100 }, 500)).toBe(true);
    expect(isPaidByHand({ status: 'paid', montantPaye: 500 }, 500)).toBe(false);
    expect(isPaidByHand({ status: 'billed', montantPaye: 100 }, 500)).toBe(false);
    expect(paymentStateOf(500, 100, '2026-11-02', true)).toEqual({
      status: 'paid',
      montantPaye: 100,
      datePaiement: '2026-11-02',
      paiementPartiel: false,
      montantDu: 0,
    });
    expect(paymentStateOf(500, null, null, true)).toEqual({ status: 'paid', montantPaye: null, datePaiement: null, paiementPartiel: false, montantDu: null });
  });

  it('says the over-payment, what is still due, and the amount as a form shows it', () => {
    expect(overpaymentOf({ montantPaye: 1220.1, partComplementaire: 1200 })).toBe(20.1);
    expect(overpaymentOf({ montantPaye: 1200, partComplementaire: 1200 })).toBeNull();
    expect(overpaymentOf({ montantPaye: 50, partComplementaire: null })).toBeNull();
    expect(amountDue({ status: 'billed', montantDu: null, partComplementaire: 77.9 })).toBe(77.9);
    expect(amountDue({ status: 'billed', montantDu: 12.5, partComplementaire: 77.9 })).toBe(12.5);
    expect(amountDue({ status: 'paid', montantDu: 0, partComplementaire: 77.9 })).toBe(0);
    expect(amountDue({ status: 'approved', partComplementaire: 77.9 })).toBeNull();
    expect(decimalComma(77.9)).toBe('77,90');
    expect(decimalComma(1234)).toBe('1234,00');
    expect(decimalComma(null)).toBe('');
  });
});

describe('a statement line’s key', () => {
  it('ignores spaces, punctuation, accents and case, not the amount, the date or the reference’s letters and digits', () => {
    const line = { payer: 'Allianz', reference: 'FAC-DEMO-0002', amount: 1000, paymentDate: '2026-11-20' };
    expect(receivedLineKey(line)).toBe('ALLIANZ|FACDEMO0002|100000|2026-11-20');
    expect(receivedLineKey({ ...line, payer: ' allianz  ', reference: 'fac demo 0002' })).toBe(receivedLineKey(line));
    expect(receivedLineKey({ ...line, payer: 'Mutuelle   Générale' })).toBe('MUTUELLEGENERALE|FACDEMO0002|100000|2026-11-20');
    // An accent written as its own character (a file saved on a Mac) folds alike.
    expect(receivedLineKey({ ...line, payer: 'Sante\u0301clair' })).toBe(receivedLineKey({ ...line, payer: 'SANTÉCLAIR' }));
    for (const other of [{ amount: 1000.01 }, { paymentDate: '2026-11-21' }, { reference: 'FAC-DEMO-0003' }, { payer: 'AXA' }]) {
      expect(receivedLineKey({ ...line, ...other })).not.toBe(receivedLineKey(line));
    }
  });
});

describe('the receivables’ age buckets', () => {
  it('put a billing date in the bucket whose range holds it', () => {
    const today = '2026-11-26';
    for (const age of RECEIVABLE_AGES) {
      const { after, before } = receivableAgeRange(today, age.key);
      for (const day of [after, before].filter((d): d is string => !!d)) expect(receivableAgeOf(today, day), `${age.key} ${day}`).toBe(age.key);
    }
    expect(receivableAgeOf(today, today)).toBe('under30');
    expect(receivableAgeOf(today, '2020-01-01')).toBe('over90');
    expect(receivableAgeOf(today, null)).toBeUndefined();
  });
});
