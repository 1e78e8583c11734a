// A bulk DPEC's selection sorted before anything is sent (src/pec/BulkActions.tsx): the single start's rule
// (dpecRefusal, domain/pec.ts) on each file the PEC list read. Apart from domain/bulk.ts, which the settings pages
// import (its robot concurrency key) and which must not bring the PEC files' rules to them.
import { fileKindOf } from './fileKinds';
import { dpecRefusal, dpecRefusalReason } from './pec';

/** A selected file as the PEC list read it: what the DPEC rule reads (dpecRefusal, domain/pec.ts). */
export interface DpecSelectedFile {
  numeroDossier?: string | null;
  archived?: boolean | null;
  status?: string | null;
  shop?: { specialite?: string | null } | null;
  numeroDossierAssure?: string | null;
  numeroDevisAssure?: string | null;
  mutual?: unknown;
  prescriber?: unknown;
  datePrescription?: string | null;
}

export interface DpecSelection<Id> {
  /** The files a bulk DPEC sends: those the rule lets go, and those the page did not read (the server judges them). */
  sent: Id[];
  /** The others, unchanged, by reason in the order first met: the reason and the files' numbers. */
  held: { reason: string; files: string[] }[];
}

/** A bulk DPEC's selection sorted by the single start's rule, before anything is sent. */
export function dpecSelection<Id>(selection: readonly { id: Id; file?: DpecSelectedFile }[]): DpecSelection<Id> {
  const sent: Id[] = [];
  const held = new Map<string, string[]>();
  for (const { id, file } of selection) {
    const refusal = file && dpecRefusal(file, fileKindOf(file.shop?.specialite));
    if (!refusal) sent.push(id);
    else {
      const reason = dpecRefusalReason(refusal);
      held.set(reason, [...(held.get(reason) ?? []), file.numeroDossier ?? String(id)]);
    }
  }
  return { sent, held: [...held].map(([reason, files]) => ({ reason, files })) };
}
