// A DPEC result (the insurer's answer to the request) on the file.
import type { DpecCallback } from '#domain/pecSchemas';
import { restorePrevious, settle, type ResultEffect, type ResultStep } from './steps';

export function applyDpecResult(dpec: DpecCallback, step: ResultStep, effect: ResultEffect): void {
  const { d, outcome, now } = step;
  const { changes } = effect;
  if (dpec.num_dossier) changes.numDossierDpec = dpec.num_dossier;
  if (dpec.date_creation) changes.dateCreation = dpec.date_creation;
  if (outcome === 'success' || outcome === 'pending') {
    if (dpec.num_pec) changes.numPec = dpec.num_pec;
    for (const [from, to] of [
      ['prix_frais_reels', 'prixFraisReels'],
      ['base_ss', 'baseSs'],
      ['part_ss', 'partSs'],
      ['part_complementaire', 'partComplementaire'],
      ['reste_charge', 'resteCharge'],
    ] as const) {
      const value = dpec[from];
      if (typeof value === 'number') changes[to] = value;
    }
    if (dpec.date_peremption) changes.datePeremption = dpec.date_peremption;
  }
  const open = ['draft', 'processing', 'pending', 'rejected'];
  if (outcome === 'success') {
    settle(effect, d, 'approved', open);
    if (effect.status === 'approved') {
      changes.dateValidation = now;
      changes.detailRefus = null;
    }
  } else if (outcome === 'pending') settle(effect, d, 'pending', open);
  else if (outcome === 'refused') {
    settle(effect, d, 'rejected', open);
    changes.detailRefus = dpec.detail_refus;
  } else restorePrevious(effect, step);
}
