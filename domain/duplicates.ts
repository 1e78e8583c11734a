// Duplicates caught before they cost (issue 25). Twins: two files of one organisation with the same mutual and the same
// quote number (numeroDevisAssure), neither archived: the same request, which the insurer would receive twice. A twin is
// a warning on the file; a DPEC while a twin's request is in progress or granted needs an explicit confirmation; the
// PEC import skips a line that matches a file already there. Shared by the browser and the server.
import { pecStatusLabel, type PecStatus } from './pec';

/** A twin in one of these statuses has a request at the insurer (in progress or granted): a second DPEC is refused. */
export const TWIN_DPEC_STATUSES: readonly PecStatus[] = ['processing', 'pending', 'approved', 'billed', 'paid'];

/** The application's page of a file: the drawer over the list. */
export const filePageUrl = (id: number | string) => `/pec/${id}`;

export interface Twin {
  id: number;
  numeroDossier: string;
  status: string;
  /** Its centre: a reader who cannot see that centre is told a twin exists, never which file it is. */
  shopId: number;
}

/** The twins a reader may be told about by name, and whether others exist in centres they cannot see. */
export function twinsSeenBy(twins: readonly Twin[], sees: (twin: Twin) => boolean): { named: Twin[]; hidden: boolean } {
  const named = twins.filter(sees);
  return { named, hidden: named.length < twins.length };
}

const HIDDEN_TWIN = 'une autre demande de votre organisation';

export const DUPLICATE_MESSAGES = {
  warning: (twin: Twin) =>
    `La demande ${twin.numeroDossier} (${pecStatusLabel(twin.status)}) porte la même mutuelle et le même numéro de devis : vérifiez qu’il ne s’agit pas de la même demande avant de lancer le DPEC.`,
  /** A twin in a centre the reader cannot see: nothing that identifies it (number, link, id). */
  hiddenWarning:
    'Une autre demande de votre organisation porte déjà ce numéro de devis avec la même mutuelle : vérifiez auprès de votre organisation qu’il ne s’agit pas de la même demande avant de lancer le DPEC.',
  /** `hidden`: twins in centres the reader cannot see, said without naming them. */
  dpecRefused: (twins: readonly Twin[], hidden = false) => {
    const named = [...twins.map((t) => `la demande ${t.numeroDossier} (${pecStatusLabel(t.status)})`), ...(hidden ? [HIDDEN_TWIN] : [])];
    return `Doublon : ${named.join(', ')} porte${named.length > 1 ? 'nt' : ''} la même mutuelle et le même numéro de devis, avec un DPEC en cours ou accordé. Confirmez pour envoyer quand même.`;
  },
  /** The import's report of a line it skipped. */
  alreadyThere: (numeroDossier: string) => `déjà présent : ${numeroDossier}`,
  sameLineAbove: (line: number) => `déjà présent : ligne ${line} du fichier`,
} as const;
