// Issue 25's rules shared by the browser and the server: who may archive and restore, why a deletion is refused, the
// archive's form, the buttons of an archived file, and the dates that can be true.
import { describe, expect, it } from 'vitest';
import { archiveReasonText, canArchive, canRestore, deletionRefusal, newMoneyRefusal, takesNewMoney, type DeletionFacts } from '#domain/archive';
import { billingButtonState, dpecButtonState, dpecDay, expiryDateError, invoiceDateError } from '#domain/pec';
import { pecArchiveSchema, pecBillingSchemaFor } from '#domain/pecSchemas';
import { SEEDED_ROLES } from '#domain/roles';

const draft: DeletionFacts = { numeroDossier: 'PEC-2026-000401', status: 'draft', holdsPayment: false, hasRobotRun: false };

describe('money on an archived file', () => {
  it('takes no new money, and says to restore the file first', () => {
    expect(takesNewMoney({ archived: false })).toBe(true);
    expect(takesNewMoney({})).toBe(true);
    expect(takesNewMoney({ archived: true })).toBe(false);
    expect(newMoneyRefusal({ archived: false, numeroDossier: 'PEC-2026-000401' })).toBeUndefined();
    expect(newMoneyRefusal({ archived: true, numeroDossier: 'PEC-2026-000401' })).toBe(
      'La demande PEC-2026-000401 est archivée : elle ne reçoit plus de nouveau paiement. Restaurez la demande pour y compter un paiement.',
    );
  });
});

describe('deleting a file', () => {
  it('is allowed for a draft that never went to the robot, and refused with the number and why otherwise', () => {
    expect(deletionRefusal(draft)).toBeUndefined();
    const why = (facts: Partial<DeletionFacts>) => deletionRefusal({ ...draft, ...facts })?.split(' Archivez')[0];
    expect(why({ status: 'paid' })).toBe('Suppression impossible : la demande PEC-2026-000401 est payée.');
    expect(why({ status: 'billed' })).toBe('Suppression impossible : la demande PEC-2026-000401 est facturée.');
    expect(why({ status: 'approved', statutFacturation: true })).toBe('Suppression impossible : la demande PEC-2026-000401 est facturée.');
    expect(why({ holdsPayment: true })).toBe('Suppression impossible : la demande PEC-2026-000401 a reçu un paiement.');
    expect(why({ status: 'approved', numPec: 'PEC-42' })).toBe('Suppression impossible : la demande PEC-2026-000401 porte le numéro de PEC PEC-42.');
    expect(why({ hasRobotRun: true })).toBe('Suppression impossible : la demande PEC-2026-000401 a déjà été transmise au robot.');
    expect(why({ status: 'rejected' })).toBe('Suppression impossible : la demande PEC-2026-000401 n’est plus un brouillon (état « Refusé »).');
    expect(deletionRefusal({ ...draft, status: 'billed' })).toMatch(/Archivez-la plutôt : elle restera dans l’historique, les exports et les statistiques\.$/);
  });
});

describe('archiving and restoring', () => {
  const role = (name: keyof typeof SEEDED_ROLES, id = 7) => ({ id, permissions: SEEDED_ROLES[name].permissions });

  it('archives by the author or delete.pec, restores by delete.pec alone', () => {
    expect(canArchive(role('assistant'), { createdById: 7 })).toBe(true);
    expect(canArchive(role('assistant'), { createdById: 8 })).toBe(false);
    expect(canArchive(role('assistant'), { createdById: null })).toBe(false);
    expect(canArchive(role('audioprothesiste'), { createdById: 8 })).toBe(false);
    expect(canArchive(role('organisationAdmin'), { createdById: 8 })).toBe(true);
    expect(canArchive(role('superAdmin'), { createdById: 8 })).toBe(true);
    expect(canRestore(role('assistant'))).toBe(false);
    expect(canRestore(role('audioprothesiste'))).toBe(false);
    expect(canRestore(role('readOnly'))).toBe(false);
    expect(canRestore(role('organisationAdmin'))).toBe(true);
  });

  it('offers nothing to who may not write the file (the server refuses the merge-patch first): read-only staff, even as its author', () => {
    expect(canArchive(role('readOnly'), { createdById: 7 })).toBe(false);
    expect(canArchive({ id: 7, permissions: ['pec.view', 'delete.pec'] }, { createdById: 8 })).toBe(false);
    expect(canRestore({ permissions: ['pec.view', 'delete.pec'] })).toBe(false);
  });

  it('asks a reason, and its text for “Autre”, which the file shows', () => {
    expect(pecArchiveSchema.safeParse({ archiveReason: 'duplicate', archiveNote: 'ignoré' }).data).toEqual({ archiveReason: 'duplicate', archiveNote: null });
    expect(pecArchiveSchema.safeParse({ archiveReason: 'other', archiveNote: ' Déménagement ' }).data).toEqual({
      archiveReason: 'other',
      archiveNote: 'Déménagement',
    });
    expect(pecArchiveSchema.safeParse({ archiveReason: '' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['archiveReason', 'Choisissez le motif de l’archivage'],
    ]);
    expect(pecArchiveSchema.safeParse({ archiveReason: 'other', archiveNote: '' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['archiveNote', 'Précisez le motif de l’archivage'],
    ]);
    expect(archiveReasonText('abandoned')).toBe('Abandonnée par le patient');
    expect(archiveReasonText('settled')).toBe('Dossier soldé');
    expect(archiveReasonText('other', 'Déménagement')).toBe('Autre : Déménagement');
    expect(archiveReasonText(null)).toBe('');
  });

  it('disables the DPEC and billing buttons of an archived file', () => {
    const dossier = { numeroDossierAssure: 'P', numeroDevisAssure: 'D', mutual: 1, status: 'approved', numPec: 'PEC-1' };
    expect(dpecButtonState({ canRun: true, dossier, executions: [], archived: true })).toEqual({ label: 'Demande archivée', disabled: true });
    expect(billingButtonState({ canRun: true, dossier, executions: [], archived: true })).toEqual({ label: 'Demande archivée', disabled: true });
    expect(billingButtonState({ canRun: true, dossier: { ...dossier, statutFacturation: true }, executions: [], archived: true })).toEqual({
      label: 'Facturé',
      disabled: true,
      done: true,
    });
    expect(dpecButtonState({ canRun: true, dossier, executions: [] })).toEqual({ label: 'Créer DPEC', disabled: false });
  });
});

describe('dates that can be true', () => {
  it('dates an invoice between the DPEC’s day and today', () => {
    expect(invoiceDateError('2026-11-27', '2026-11-01', '2026-11-26')).toBe('La date de facture ne peut pas être dans le futur');
    expect(invoiceDateError('2026-10-31', '2026-11-01', '2026-11-26')).toBe('La date de facture ne peut pas précéder la date du DPEC (01/11/2026)');
    expect(invoiceDateError('2026-11-01', '2026-11-01', '2026-11-26')).toBeUndefined();
    expect(invoiceDateError('2026-11-26', null, '2026-11-26')).toBeUndefined();
  });

  it('takes the DPEC’s creation date, else the day it was granted in France', () => {
    expect(dpecDay({ dateCreation: '2026-11-03', dateValidation: '2026-11-10T10:00:00Z' })).toBe('2026-11-03');
    // 23:30 UTC on 9 November is already the 10th in Paris.
    expect(dpecDay({ dateCreation: null, dateValidation: '2026-11-09T23:30:00Z' })).toBe('2026-11-10');
    expect(dpecDay({})).toBeNull();
  });

  it('ends an agreement after the DPEC’s day', () => {
    expect(expiryDateError('2026-11-03', '2026-11-03')).toBe('La date de péremption doit être postérieure à la date du DPEC (03/11/2026)');
    expect(expiryDateError('2026-11-04', '2026-11-03')).toBeUndefined();
    expect(expiryDateError('2026-11-04', null)).toBeUndefined();
  });

  it('checks the billing dialog against its file’s DPEC, with the messages under the date', () => {
    const schema = pecBillingSchemaFor('2026-01-15');
    expect(schema.safeParse({ numBilling: 'F-1', dateBilling: '14/01/2026' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dateBilling', 'La date de facture ne peut pas précéder la date du DPEC (15/01/2026)'],
    ]);
    expect(schema.safeParse({ numBilling: 'F-1', dateBilling: '01/01/2999' }).error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dateBilling', 'La date de facture ne peut pas être dans le futur'],
    ]);
    expect(schema.safeParse({ numBilling: 'F-1', dateBilling: '15/01/2026' }).success).toBe(true);
  });
});
