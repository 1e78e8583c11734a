// @vitest-environment node
// The audit trail shows a statement line's outcome (`resultat`) by its French label, not its code ("partial → unknown"),
// from a module of labels alone: the settings chunk that holds the audit trail must not load the payment rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYMENT_OUTCOME_LABELS as RULES_LABELS } from '#domain/payments';
import { PAYMENT_OUTCOME_LABELS, PAYMENT_OUTCOMES } from '#domain/paymentOutcomes';
import { recordedCodeLabel } from '../../src/resources/audit_logs/values';

const ROOT = path.resolve(__dirname, '../..');
const importsOf = (file: string) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from '([^']+)'/g)].map(([, source]) => source);

describe('the audit trail’s outcomes', () => {
  it('shows a recorded outcome by its label, before and after', () => {
    expect(recordedCodeLabel('resultat', 'partial')).toBe('Paiement partiel');
    expect(recordedCodeLabel('resultat', 'unknown')).toBe('Référence inconnue');
    expect(recordedCodeLabel('resultat', 'archived')).toBe('Demande archivée');
    for (const outcome of PAYMENT_OUTCOMES) expect(recordedCodeLabel('resultat', outcome)).toBe(PAYMENT_OUTCOME_LABELS[outcome]);
  });

  it('leaves other fields and values as they are', () => {
    expect(recordedCodeLabel('status', 'partial')).toBeUndefined();
    expect(recordedCodeLabel(undefined, 'paid')).toBeUndefined();
    expect(recordedCodeLabel('resultat', 'something_else')).toBeUndefined();
    expect(recordedCodeLabel('resultat', 12)).toBeUndefined();
    expect(recordedCodeLabel('resultat', 'toString')).toBeUndefined();
  });

  it('reads the labels the payment rules use, from a module that imports nothing', () => {
    expect(RULES_LABELS).toBe(PAYMENT_OUTCOME_LABELS);
    expect(importsOf('domain/paymentOutcomes.ts')).toEqual([]);
    for (const file of ['src/resources/audit_logs/values.ts', 'src/resources/audit_logs/parts.tsx', 'src/resources/audit_logs/actions.ts'])
      expect(
        importsOf(file).filter((source) => /payments/.test(source)),
        file,
      ).toEqual([]);
  });
});
