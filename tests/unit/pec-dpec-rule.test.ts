// Whether a DPEC run may start on a file (domain/pec.ts, dpecRefusal): the single start's rule on the server and the
// bulk DPEC's confirmation read it; and the bulk's selection sorted by it (domain/bulkDpec.ts).
import { describe, expect, it } from 'vitest';
import { dpecRefusal, dpecRefusalReason } from '#domain/pec';
import { dpecSelection, type DpecSelectedFile } from '#domain/bulkDpec';

const READY = { status: 'draft', archived: false, numeroDossierAssure: 'DP-1', numeroDevisAssure: 'DEV-1', mutual: '/api/mutuals/1' };

describe('dpecRefusal', () => {
  it('lets a complete file go from draft, pending or rejected', () => {
    for (const status of ['draft', 'pending', 'rejected']) expect(dpecRefusal({ ...READY, status }, 'audio')).toBeUndefined();
  });

  it('refuses in the start’s order: archived, prerequisites, a run in progress, the status', () => {
    expect(dpecRefusal({ ...READY, archived: true, mutual: null, status: 'approved' }, 'audio')).toEqual({ rule: 'archived' });
    expect(dpecRefusal({ ...READY, mutual: null, numeroDevisAssure: ' ', status: 'approved' }, 'audio')).toEqual({
      rule: 'prerequisites',
      missing: ['numeroDevisAssure', 'mutual'],
    });
    expect(dpecRefusal({ ...READY, status: 'processing' }, 'audio')).toEqual({ rule: 'running' });
    for (const status of ['approved', 'billed', 'paid']) expect(dpecRefusal({ ...READY, status }, 'audio')).toEqual({ rule: 'status', status });
  });

  it('asks the prescription of an optical file only', () => {
    expect(dpecRefusal(READY, 'audio')).toBeUndefined();
    expect(dpecRefusal(READY, 'optical')).toEqual({ rule: 'prerequisites', missing: ['prescriber', 'datePrescription'] });
  });

  it('says each refusal in French, the same for every file it refuses', () => {
    expect(dpecRefusalReason({ rule: 'status', status: 'approved' })).toBe('Le DPEC ne peut pas être lancé pour un dossier « Approuvé ».');
    expect(dpecRefusalReason({ rule: 'running' })).toBe('Un appel robot est déjà en cours pour ce dossier.');
    expect(dpecRefusalReason({ rule: 'prerequisites', missing: ['mutual', 'numeroDevisAssure'] })).toBe(
      'Prérequis manquants : Mutuelle sélectionnée, N° Devis Assuré.',
    );
    expect(dpecRefusalReason({ rule: 'archived' })).toBe('Demande archivée : le robot ne la traite plus. Restaurez-la d’abord.');
  });
});

describe('dpecSelection', () => {
  const file = (numeroDossier: string, fields: Partial<DpecSelectedFile> = {}): DpecSelectedFile => ({
    ...READY,
    numeroDossier,
    shop: { specialite: 'Audioprothésiste' },
    ...fields,
  });

  it('sends the files the rule lets go, holds the others by reason in the order met', () => {
    const selection = dpecSelection([
      { id: 1, file: file('PEC-1') },
      { id: 2, file: file('PEC-2', { status: 'approved' }) },
      { id: 3, file: file('PEC-3', { archived: true }) },
      { id: 4, file: file('PEC-4', { status: 'approved' }) },
      { id: 5, file: file('PEC-5', { status: 'rejected' }) },
    ]);
    expect(selection.sent).toEqual([1, 5]);
    expect(selection.held).toEqual([
      { reason: 'Le DPEC ne peut pas être lancé pour un dossier « Approuvé ».', files: ['PEC-2', 'PEC-4'] },
      { reason: 'Demande archivée : le robot ne la traite plus. Restaurez-la d’abord.', files: ['PEC-3'] },
    ]);
  });

  it('reads the kind from the centre’s speciality: an optical file without its prescription is held', () => {
    const selection = dpecSelection([{ id: 7, file: file('PEC-7', { shop: { specialite: 'Opticien' } }) }]);
    expect(selection.sent).toEqual([]);
    expect(selection.held).toEqual([{ reason: 'Prérequis manquants : Prescripteur, Date de prescription.', files: ['PEC-7'] }]);
  });

  it('sends a file the page did not read: the server judges it', () => {
    expect(dpecSelection([{ id: 9 }, { id: 2, file: file('PEC-2', { status: 'paid' }) }]).sent).toEqual([9]);
  });
});
