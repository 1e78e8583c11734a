// @vitest-environment node
// The audit trail shows a statement line's outcome (`resultat`), a PEC file's status and a robot result's outcome and
// origin by their French labels, not their codes ("partial → unknown", "processing → approved"), from modules of labels
// alone: the settings chunk that holds the audit trail must not load the payment nor the PEC rules.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYMENT_OUTCOME_LABELS as RULES_LABELS } from '#domain/payments';
import { PAYMENT_OUTCOME_LABELS, PAYMENT_OUTCOMES } from '#domain/paymentOutcomes';
import { PEC_STATUS_LABELS, PEC_STATUSES } from '#domain/pec';
import { recordedCodeLabel as label } from '../../src/resources/audit_logs/values';

const ROBOT_OUTCOMES: Record<string, string> = { success: 'Réussie', refused: 'Refusée' };
const robotOutcome = (code: string) => ROBOT_OUTCOMES[code];
const recordedCodeLabel = (field: string | undefined, value: unknown, entity = 'payment_statements') => label(entity, field, value, robotOutcome);

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
    // A status, an outcome, an origin of another entity than a PEC file: its own choices say them, or nothing.
    expect(recordedCodeLabel('status', 'approved', 'users')).toBeUndefined();
    expect(recordedCodeLabel('source', 'robot', 'holdings')).toBeUndefined();
  });

  it('shows a PEC file’s statuses, a robot result’s outcome and origin in French', () => {
    for (const status of PEC_STATUSES) expect(recordedCodeLabel('status', status, 'pec_dossiers')).toBe(PEC_STATUS_LABELS[status]);
    expect(recordedCodeLabel('status', 'toString', 'pec_dossiers')).toBeUndefined();
    expect(recordedCodeLabel('outcome', 'success', 'pec_dossiers')).toBe('Réussie');
    expect(recordedCodeLabel('outcome', 'unheard_of', 'pec_dossiers')).toBeUndefined();
    expect(recordedCodeLabel('source', 'robot', 'pec_dossiers')).toBe('Robot');
    expect(recordedCodeLabel('source', 'saisie manuelle', 'pec_dossiers')).toBe('Saisie manuelle');
    expect(recordedCodeLabel('executionId', 372, 'pec_dossiers')).toBeUndefined();
  });

  it('reads the labels the payment rules use, from a module that imports nothing', () => {
    expect(RULES_LABELS).toBe(PAYMENT_OUTCOME_LABELS);
    expect(importsOf('domain/paymentOutcomes.ts')).toEqual([]);
    expect(importsOf('domain/pecStatus.ts')).toEqual([]);
    for (const file of ['src/resources/audit_logs/values.ts', 'src/resources/audit_logs/parts.tsx', 'src/resources/audit_logs/actions.ts'])
      expect(
        importsOf(file).filter((source) => /payments|#domain\/pec$/.test(source)),
        file,
      ).toEqual([]);
  });
});
