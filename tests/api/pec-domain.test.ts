// The PEC rules shared with the browser (domain/pec.ts): prices and dates as typed, the lifecycle, the DPEC and
// billing buttons in the spec's priority order, and the shaping of robot errors (spec sections 4, 5 and 8).
import { describe, expect, it } from 'vitest';
import {
  billingButtonState,
  dpecButtonState,
  firstRobotApiError,
  messagesFromText,
  missingPrerequisites,
  needsContractNumberNotice,
  parseDateInput,
  parsePrice,
  robotStepResults,
  shapeRobotError,
  transitionError,
  type WorkflowExecutionView,
} from '#domain/pec';
import { pecBillingSchema, pecFormSchema } from '#domain/pecSchemas';

const execution = (type: string, state: 'running' | 'success' | 'error', startedAt: string, id = 1): WorkflowExecutionView => ({
  id,
  success: state === 'running' ? null : state === 'success',
  startedAt,
  completedAt: state === 'running' ? null : startedAt,
  workflow: { name: 'Appel robot DPEC' },
  callbackType: type,
  outcome: state,
  robotResponse: { messages: [], data: { callback_type: type, callback_payload: { messages: [] } } },
  error: null,
});

describe('prices and dates as people type them', () => {
  it('reads French prices with spaces and a decimal comma, at most 2 decimals', () => {
    expect(parsePrice('1 450,50')).toBe(1450.5);
    expect(parsePrice('1\u00a0450,5')).toBe(1450.5);
    expect(parsePrice('1450.50')).toBe(1450.5);
    expect(parsePrice(950)).toBe(950);
    expect(parsePrice('')).toBeNull();
    expect(parsePrice(null)).toBeNull();
    for (const bad of ['1 450,505', '-5', '12,3,4', 'abc', -1, 1.234, Number.NaN]) expect(parsePrice(bad), String(bad)).toBeUndefined();
  });

  it('reads ISO and dd/mm/yyyy dates and refuses impossible ones', () => {
    expect(parseDateInput('2026-05-31')).toBe('2026-05-31');
    expect(parseDateInput('31/05/2026')).toBe('2026-05-31');
    expect(parseDateInput('2026-05-31T10:00:00Z')).toBe('2026-05-31');
    expect(parseDateInput('2026-05-31T10:00:00')).toBe('2026-05-31');
    // A moment with its offset is the day it is in France: late on the 30th in UTC or west of it is already the 1st.
    expect(parseDateInput('2026-11-30T23:30:00Z')).toBe('2026-12-01');
    expect(parseDateInput('2026-11-30T23:59:59-12:00')).toBe('2026-12-01');
    expect(parseDateInput('2026-11-30T00:00:00.000Z')).toBe('2026-11-30');
    expect(parseDateInput('2026-11-30T00:30:00+02:00')).toBe('2026-11-29');
    expect(parseDateInput('2026-02-31T10:00:00Z')).toBeUndefined();
    expect(parseDateInput('')).toBeNull();
    expect(parseDateInput('31/02/2026')).toBeUndefined();
    expect(parseDateInput('demain')).toBeUndefined();
  });

  it('keeps one message per non-empty line', () => {
    expect(messagesFromText(' a \n\n  \nb\r\nc ')).toEqual(['a', 'b', 'c']);
  });
});

describe('forms', () => {
  it('the creation form has the spec’s messages', () => {
    const result = pecFormSchema.safeParse({ networkId: '', shopId: 0, mutualId: undefined, numeroDossierAssure: '  ', numeroDevisAssure: '' });
    expect(result.success).toBe(false);
    expect(Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]))).toEqual({
      networkId: 'Une plateforme doit être sélectionnée',
      shopId: 'Un centre doit être sélectionné',
      mutualId: 'Une mutuelle doit être sélectionnée',
      numeroDossierAssure: 'Le numéro de dossier patient est requis',
      numeroDevisAssure: 'Le numéro de devis est requis',
    });
    expect(pecFormSchema.parse({ networkId: '2', shopId: 3, mutualId: 4, numeroDossierAssure: ' P1 ', numeroDevisAssure: 'D1' })).toMatchObject({
      networkId: 2,
      numeroDossierAssure: 'P1',
    });
  });

  it('the billing dialog needs the invoice number and date', () => {
    const result = pecBillingSchema.safeParse({ numBilling: '', dateBilling: '' });
    expect(result.error!.issues.map((i) => i.message)).toEqual(['Le numéro de facture logiciel est requis', 'La date de facture logiciel est requise']);
  });

  it('the contract-number notice is for Itelis and Santéclair, whatever the case or accents', () => {
    expect(needsContractNumberNotice('ITELIS')).toBe(true);
    expect(needsContractNumberNotice('Santéclair')).toBe(true);
    expect(needsContractNumberNotice('Kalixia')).toBe(false);
    expect(needsContractNumberNotice(null)).toBe(false);
  });
});

describe('the lifecycle', () => {
  it('allows the order and back to draft from rejected, refuses the rest', () => {
    for (const [from, to] of [
      ['draft', 'pending'],
      ['pending', 'approved'],
      ['pending', 'rejected'],
      ['approved', 'billed'],
      ['billed', 'paid'],
      ['rejected', 'draft'],
      ['approved', 'approved'],
    ]) {
      expect(transitionError(from!, to!), `${from} -> ${to}`).toBeUndefined();
    }
    for (const [from, to] of [
      ['draft', 'approved'],
      ['approved', 'draft'],
      ['paid', 'billed'],
      ['draft', 'processing'],
      ['billed', 'approved'],
    ]) {
      expect(transitionError(from!, to!), `${from} -> ${to}`).toMatch(/^Changement d’état impossible/);
    }
    expect(transitionError('processing', 'draft')).toBe('Changement d’état impossible : un appel robot est en cours sur ce dossier.');
    expect(transitionError('draft', 'nope')).toBe('État invalide');
  });

  it('lists the missing prerequisites in the warning’s order', () => {
    expect(missingPrerequisites({ numeroDossierAssure: ' ', numeroDevisAssure: null, mutual: null })).toEqual([
      'numeroDossierAssure',
      'numeroDevisAssure',
      'mutual',
    ]);
    expect(missingPrerequisites({ numeroDossierAssure: 'P', numeroDevisAssure: 'D', mutual: '/api/mutuals/1' })).toEqual([]);
  });
});

describe('buttons and robot steps (spec section 4)', () => {
  const ready = { numeroDossierAssure: 'P', numeroDevisAssure: 'D', mutual: 1 };

  it('the DPEC button follows the priority order', () => {
    expect(dpecButtonState({ canRun: false, dossier: {}, executions: [] })).toEqual({ label: 'Pas d’autorisation', disabled: true });
    expect(dpecButtonState({ canRun: true, dossier: {}, executions: [] })).toEqual({ label: 'Données manquantes', disabled: true });
    expect(dpecButtonState({ canRun: true, dossier: ready, executions: [], busy: true })).toEqual({ label: 'En cours…', disabled: true, running: true });
    expect(dpecButtonState({ canRun: true, dossier: ready, executions: [execution('scraping', 'running', '2026-01-01T10:00:00Z')] }).label).toBe('En cours…');
    const done = [execution('dpec', 'success', '2026-01-01T10:01:00Z', 2), execution('scraping', 'success', '2026-01-01T10:00:00Z', 1)];
    expect(dpecButtonState({ canRun: true, dossier: ready, executions: done })).toEqual({ label: 'DPEC créé', disabled: true, done: true });
    expect(dpecButtonState({ canRun: true, dossier: ready, executions: [execution('scraping_error', 'error', '2026-01-01T10:00:00Z')] })).toEqual({
      label: 'Réessayer',
      disabled: false,
    });
    expect(dpecButtonState({ canRun: true, dossier: ready, executions: [] })).toEqual({ label: 'Créer DPEC', disabled: false });
  });

  it('the billing button needs a granted DPEC, and says "Facturé" once billed', () => {
    const granted = [execution('dpec', 'success', '2026-01-01T10:01:00Z')];
    const approved = { statutFacturation: false, status: 'approved', numPec: 'PEC-1' };
    expect(billingButtonState({ canRun: true, dossier: approved, executions: granted })).toEqual({ label: 'Facturer', disabled: false });
    expect(billingButtonState({ canRun: false, dossier: approved, executions: granted }).disabled).toBe(true);
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: false, status: 'pending' }, executions: granted }).disabled).toBe(true);
    expect(billingButtonState({ canRun: true, dossier: { statutFacturation: true }, executions: granted })).toEqual({
      label: 'Facturé',
      disabled: true,
      done: true,
    });
  });

  it('each step is the latest robot execution of its type', () => {
    const steps = robotStepResults([
      execution('scraping', 'success', '2026-01-01T10:00:00Z', 1),
      execution('dpec_error', 'error', '2026-01-01T10:01:00Z', 2),
      execution('scraping', 'running', '2026-01-02T09:00:00Z', 3),
      { ...execution('dpec', 'success', '2026-01-03T09:00:00Z', 4), workflow: { name: 'Saisie comptable' } },
    ]);
    expect(steps.scraping.state).toBe('running');
    expect(steps.dpec.state).toBe('error');
    expect(steps.billing.state).toBeUndefined();
  });
});

describe('robot errors shaped for people (spec section 8)', () => {
  it('shortens "Robot API returned" to its first error, with the network tip', () => {
    const shaped = shapeRobotError(['Robot API returned 422: {"errors":[{"message":"Mutuelle inconnue"},{"message":"autre"}]}'], 'dpec');
    expect(shaped).toEqual({
      title: 'Échec du DPEC',
      message: 'Mutuelle inconnue',
      tip: 'Vérifiez la configuration de la mutuelle dans les paramètres du réseau.',
    });
    expect(firstRobotApiError('Erreur : Robot API returned 500: Internal Server Error. Retry later')).toBe('Internal Server Error.');
    expect(firstRobotApiError('Robot API returned 400: {"detail":"Numéro de devis inconnu"}')).toBe('Numéro de devis inconnu');
  });

  it('gives the scrapping_error texts of the DPEC and of the billing', () => {
    expect(shapeRobotError('scrapping_error: timeout', 'dpec')).toEqual({
      title: 'Échec du DPEC',
      message: 'Erreur technique du service DPEC',
      tip: 'Contactez votre administrateur si le problème persiste.',
    });
    expect(shapeRobotError(['x', 'scrapping_error'], 'billing')).toEqual({
      title: 'Échec de la facturation',
      message: 'Erreur technique lors de la facturation',
      tip: 'Vérifiez que le DPEC est bien validé.',
    });
  });

  it('keeps the timeout message and falls back to the first message or the generic text', () => {
    expect(shapeRobotError(['10 minutes écoulées, l’appel a échoué'], 'dpec').message).toBe('10 minutes écoulées, l’appel a échoué');
    // A run closed before the message took its typographic apostrophe reads the same.
    expect(shapeRobotError(["10 minutes écoulées, l'appel a échoué"], 'dpec').message).toBe('10 minutes écoulées, l’appel a échoué');
    expect(shapeRobotError(['Portail fermé'], 'billing').message).toBe('Portail fermé');
    expect(shapeRobotError([], 'dpec').message).toBe('Une erreur technique est survenue');
  });
});
