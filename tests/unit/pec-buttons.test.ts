// The action tab's rules (spec section 4): which robot execution stands for each step, and the DPEC and billing
// buttons in the spec's priority order.
import { describe, expect, it } from 'vitest';
import { billingButtonState, dpecButtonState, robotRunKind, robotStepResults, type WorkflowExecutionView } from '#domain/pec';

const STEP_NAMES: Record<string, string> = {
  scraping: 'Appel robot DPEC — récupération du patient et des appareils',
  dpec: 'Appel robot DPEC — demande de prise en charge',
  billing: 'Appel robot facturation — facturation de la PEC',
};

interface Options {
  id: number;
  type: string;
  /** true, false, or null (not said). */
  success?: boolean | null;
  completed?: boolean;
  startedAt?: string;
  name?: string;
  /** Where the callback type is read: the robot response (default), or only the execution's own column. */
  typeIn?: 'response' | 'column';
}

function execution({
  id,
  type,
  success = true,
  completed = true,
  startedAt = '2026-11-20T10:00:00.000Z',
  name,
  typeIn = 'response',
}: Options): WorkflowExecutionView {
  const base = type.replace(/_error$/, '');
  return {
    id,
    success: completed ? success : null,
    startedAt,
    completedAt: completed ? startedAt.replace('10:', '11:') : null,
    workflow: { name: name ?? STEP_NAMES[base] ?? `Appel robot ${base}` },
    callbackType: type,
    outcome: completed ? (success ? 'success' : 'error') : 'running',
    robotResponse: typeIn === 'response' ? { messages: [], data: { callback_type: type, callback_payload: { messages: [] } } } : null,
    error: null,
  };
}

const complete = { numeroDossierAssure: 'P-1', numeroDevisAssure: 'D-1', mutual: { id: 3 } };

describe('robotStepResults', () => {
  it('has no state for a step the robot never ran', () => {
    const steps = robotStepResults([]);
    expect(steps.scraping).toEqual({ state: undefined, execution: undefined });
    expect(steps.dpec).toEqual({ state: undefined, execution: undefined });
    expect(steps.billing).toEqual({ state: undefined, execution: undefined });
  });

  it('reads running, success and error from completion and success', () => {
    const running = robotStepResults([execution({ id: 1, type: 'scraping', completed: false })]);
    expect(running.scraping.state).toBe('running');
    const done = robotStepResults([execution({ id: 1, type: 'scraping' }), execution({ id: 2, type: 'dpec_error', success: false })]);
    expect(done.scraping.state).toBe('success');
    expect(done.dpec.state).toBe('error');
    // Completed without saying it succeeded: an error, not a success.
    expect(robotStepResults([execution({ id: 3, type: 'dpec', success: null })]).dpec.state).toBe('error');
  });

  it('files scraping and scraping_error under retrieval, dpec and dpec_error under the request, billing apart', () => {
    const steps = robotStepResults([
      execution({ id: 1, type: 'scraping_error', success: false }),
      execution({ id: 2, type: 'dpec' }),
      execution({ id: 3, type: 'billing_error', success: false }),
    ]);
    expect(steps.scraping.execution?.id).toBe(1);
    expect(steps.dpec.execution?.id).toBe(2);
    expect(steps.billing.execution?.id).toBe(3);
    expect(steps.billing.state).toBe('error');
  });

  it('keeps only executions whose workflow name contains "robot", in any case', () => {
    const steps = robotStepResults([
      execution({ id: 1, type: 'dpec', name: 'Import manuel — demande de prise en charge' }),
      execution({ id: 2, type: 'scraping', name: 'ROBOT de récupération' }),
    ]);
    expect(steps.dpec.execution).toBeUndefined();
    expect(steps.scraping.execution?.id).toBe(2);
  });

  it('ignores callback types of no step', () => {
    expect(robotStepResults([execution({ id: 1, type: 'unknown' })])).toEqual(robotStepResults([]));
  });

  it('takes the latest execution by start time whatever the order, the higher id on a tie', () => {
    const older = execution({ id: 9, type: 'dpec_error', success: false, startedAt: '2026-11-19T10:00:00.000Z' });
    const newer = execution({ id: 4, type: 'dpec', startedAt: '2026-11-20T10:00:00.000Z' });
    expect(robotStepResults([older, newer]).dpec.execution?.id).toBe(4);
    expect(robotStepResults([newer, older]).dpec.execution?.id).toBe(4);
    const twinA = execution({ id: 5, type: 'scraping_error', success: false });
    const twinB = execution({ id: 6, type: 'scraping' });
    expect(robotStepResults([twinB, twinA]).scraping.execution?.id).toBe(6);
    expect(robotStepResults([twinA, twinB]).scraping.state).toBe('success');
  });

  it("reads the callback type from the robot's response, else from the execution itself", () => {
    const fromColumn = execution({ id: 1, type: 'dpec', typeIn: 'column' });
    expect(robotStepResults([fromColumn]).dpec.execution?.id).toBe(1);
    // The response wins when both are present.
    const answered = { ...execution({ id: 2, type: 'dpec' }), callbackType: 'other' };
    expect(robotStepResults([answered]).dpec.execution?.id).toBe(2);
    const column = { ...execution({ id: 3, type: 'other' }), callbackType: 'dpec' };
    expect(robotStepResults([column]).dpec.execution).toBeUndefined();
  });
});

describe('dpecButtonState, in the priority order of spec section 4', () => {
  const running = [execution({ id: 1, type: 'scraping', completed: false })];

  it('1. "Pas d\'autorisation" without pec.create, whatever else holds', () => {
    expect(dpecButtonState({ canRun: false, dossier: complete, executions: [] })).toEqual({ label: 'Pas d’autorisation', disabled: true });
    expect(dpecButtonState({ canRun: false, dossier: {}, executions: running, busy: true })).toEqual({ label: 'Pas d’autorisation', disabled: true });
  });

  it('2. "Données manquantes" when the patient number, the quote number or the mutual is missing, even while running', () => {
    const missing = { label: 'Données manquantes', disabled: true };
    expect(dpecButtonState({ canRun: true, dossier: { ...complete, numeroDossierAssure: null }, executions: [] })).toEqual(missing);
    expect(dpecButtonState({ canRun: true, dossier: { ...complete, numeroDossierAssure: '   ' }, executions: [] })).toEqual(missing);
    expect(dpecButtonState({ canRun: true, dossier: { ...complete, numeroDevisAssure: '' }, executions: [] })).toEqual(missing);
    expect(dpecButtonState({ canRun: true, dossier: { ...complete, mutual: null }, executions: [] })).toEqual(missing);
    expect(dpecButtonState({ canRun: true, dossier: { ...complete, mutual: undefined }, executions: running, busy: true })).toEqual(missing);
  });

  it('3. "En cours…" while the action is sent or any execution is open, before any earlier result', () => {
    const enCours = { label: 'En cours…', disabled: true, running: true };
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: [], busy: true })).toEqual(enCours);
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: running })).toEqual(enCours);
    const retryRunning = [
      execution({ id: 1, type: 'dpec_error', success: false }),
      execution({ id: 2, type: 'scraping', completed: false, startedAt: '2026-11-21T10:00:00.000Z' }),
    ];
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: retryRunning })).toEqual(enCours);
    // A billing run in progress also holds the DPEC button.
    const billingRunning = [execution({ id: 1, type: 'dpec' }), execution({ id: 2, type: 'billing', completed: false })];
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: billingRunning })).toEqual(enCours);
  });

  it('4. "DPEC créé" once the request step succeeded, before an older failure', () => {
    const done = { label: 'DPEC créé', disabled: true, done: true };
    expect(
      dpecButtonState({ canRun: true, dossier: complete, executions: [execution({ id: 1, type: 'scraping' }), execution({ id: 2, type: 'dpec' })] }),
    ).toEqual(done);
    const retried = [
      execution({ id: 1, type: 'scraping_error', success: false, startedAt: '2026-11-19T10:00:00.000Z' }),
      execution({ id: 2, type: 'dpec', startedAt: '2026-11-20T10:00:00.000Z' }),
    ];
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: retried })).toEqual(done);
  });

  it('5. "Réessayer" (enabled) after a failed request or a failed retrieval', () => {
    const retry = { label: 'Réessayer', disabled: false };
    expect(
      dpecButtonState({
        canRun: true,
        dossier: complete,
        executions: [execution({ id: 1, type: 'scraping' }), execution({ id: 2, type: 'dpec_error', success: false })],
      }),
    ).toEqual(retry);
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: [execution({ id: 1, type: 'scraping_error', success: false })] })).toEqual(retry);
  });

  it('6. "Créer DPEC" (enabled) otherwise', () => {
    const create = { label: 'Créer DPEC', disabled: false };
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: [] })).toEqual(create);
    // A retrieval that succeeded with no request yet, or executions that are not the robot's.
    expect(dpecButtonState({ canRun: true, dossier: complete, executions: [execution({ id: 1, type: 'scraping' })] })).toEqual(create);
    expect(
      dpecButtonState({ canRun: true, dossier: complete, executions: [execution({ id: 1, type: 'dpec_error', success: false, name: 'Saisie comptable' })] }),
    ).toEqual(create);
  });
});

describe('billingButtonState', () => {
  const dpecDone = [execution({ id: 1, type: 'scraping' }), execution({ id: 2, type: 'dpec' })];
  const granted = { statutFacturation: false, status: 'approved', numPec: 'PEC-7' };

  it('shows "Facturé", disabled, once the file is billed, with or without the right', () => {
    expect(billingButtonState({ canRun: true, dossier: { ...granted, statutFacturation: true }, executions: dpecDone })).toEqual({
      label: 'Facturé',
      disabled: true,
      done: true,
    });
    expect(billingButtonState({ canRun: false, dossier: { statutFacturation: true }, executions: [] })).toEqual({
      label: 'Facturé',
      disabled: true,
      done: true,
    });
  });

  it('is enabled with pec.create once the DPEC was granted (approved, PEC number) and the file is not billed', () => {
    expect(billingButtonState({ canRun: true, dossier: granted, executions: dpecDone })).toEqual({ label: 'Facturer', disabled: false });
    expect(billingButtonState({ canRun: true, dossier: { status: 'approved', numPec: 'PEC-7' }, executions: dpecDone })).toEqual({
      label: 'Facturer',
      disabled: false,
    });
  });

  it('stays disabled without pec.create', () => {
    expect(billingButtonState({ canRun: false, dossier: granted, executions: dpecDone })).toEqual({ label: 'Facturer', disabled: true });
  });

  it('stays disabled until the DPEC was granted: not filed, failed, or still pending at the insurer', () => {
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: false, status: 'draft' }, executions: [] })).toEqual({
      label: 'Facturer',
      disabled: true,
    });
    const failed = [execution({ id: 1, type: 'scraping' }), execution({ id: 2, type: 'dpec_error', success: false })];
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: false, status: 'draft' }, executions: failed })).toEqual({
      label: 'Facturer',
      disabled: true,
    });
    // "DPEC créé" but the insurer has not answered yet: nothing to bill.
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: false, status: 'pending', numPec: null }, executions: dpecDone })).toEqual({
      label: 'Facturer',
      disabled: true,
    });
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: false, status: 'approved', numPec: null }, executions: dpecDone })).toEqual({
      label: 'Facturer',
      disabled: true,
    });
  });

  it('says "En cours…" while a run is open or the action is being sent', () => {
    const billing = [...dpecDone, execution({ id: 3, type: 'billing', completed: false, startedAt: '2026-11-21T10:00:00.000Z' })];
    expect(billingButtonState({ canRun: true, dossier: granted, executions: billing })).toEqual({ label: 'En cours…', disabled: true, running: true });
    expect(billingButtonState({ canRun: true, dossier: granted, executions: dpecDone, busy: true })).toEqual({
      label: 'En cours…',
      disabled: true,
      running: true,
    });
  });
});

describe('robotRunKind', () => {
  it("names an execution's run by its kind, else by its step (a billing step is billing…)", () => {
    expect(robotRunKind({ runKind: 'billing', callbackType: 'billing' })).toBe('billing');
    expect(robotRunKind({ runKind: 'dpec', callbackType: 'scraping_error' })).toBe('dpec');
    expect(robotRunKind({ runKind: null, callbackType: 'billing_error' })).toBe('billing');
    expect(robotRunKind({ runKind: null, callbackType: 'dpec' })).toBe('dpec');
    expect(robotRunKind({ runKind: null, callbackType: null })).toBe('dpec');
  });
});
