// A scraping result (the patient and their devices, or an optical equipment) on the file.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { appareils } from '../db/schema';
import { assertAmountFits } from '../http/body';
import { fileKindOfShop } from '../pec/fileKind';
import { assertScrapingFitsKind, saveOpticalEquipment } from '../pec/optical';
import type { PecStatus } from '#domain/pec';
import type { DeviceInput, ScrapingCallback } from '#domain/pecSchemas';
import type { ResultEffect, ResultStep } from './steps';

export async function applyScrapingResult(tx: DbOrTx, scraping: ScrapingCallback, step: ResultStep, effect: ResultEffect): Promise<void> {
  const { d, success, inRun } = step;
  const { changes } = effect;
  // What the result holds must fit the file's kind (an optician's file gets an optical equipment).
  const kind = await fileKindOfShop(tx, d.shopId);
  assertScrapingFitsKind(kind, scraping);
  if (success) {
    // A retrieval is no outcome anyone needs to be told of.
    effect.final = false;
    const devices = scrapingDevices(scraping);
    if (scraping.equipement_optique) {
      const total = await saveOpticalEquipment(tx, d, scraping.equipement_optique);
      if (total !== null) changes.totalTtc = total;
    } else if (devices.length) {
      const prices = devices.map((device) => device.prixTtc).filter((p): p is number => typeof p === 'number');
      const total = prices.length ? Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100 : undefined;
      assertAmountFits(total, 'appareils', 'le montant du devis (appareils)');
      await tx.delete(appareils).where(eq(appareils.dossierId, d.id));
      await tx.insert(appareils).values(devices.map((device) => ({ ...device, holdingId: d.holdingId, dossierId: d.id })));
      if (total !== undefined) changes.totalTtc = total;
    }
    // The robot goes on to the request; a person entering the result by hand takes the run over and ends it.
    if (inRun?.runKind === 'dpec' && step.robot) effect.nextStep = 'dpec';
  } else if (inRun) effect.status = (inRun.previousStatus ?? d.status) as PecStatus;
  else effect.final = false;
}

/** The scraping callback's devices as appareils rows. */
function scrapingDevices(input: ScrapingCallback) {
  const offre = input.appareil?.offre_100_sante;
  const rows: {
    oreille: string;
    fabricant: string | null;
    marque: string | null;
    modele: string | null;
    prixTtc: number | null;
    codeLpp: string | null;
    premierAppareillage: boolean;
    forme: string | null;
    classe: string | null;
    offre100Sante: boolean;
  }[] = [];
  for (const [oreille, device] of [
    ['droite', input.appareil?.droit],
    ['gauche', input.appareil?.gauche],
  ] as [string, DeviceInput | null | undefined][]) {
    if (!device) continue;
    if (!device.fabricant && !device.marque && !device.modele && device.total_ttc == null && !device.code_lpp) continue;
    rows.push({
      oreille,
      fabricant: device.fabricant,
      marque: device.marque,
      modele: device.modele,
      prixTtc: device.total_ttc ?? null,
      codeLpp: device.code_lpp,
      premierAppareillage: device.premier_appareillage ?? false,
      forme: device.forme,
      classe: device.classe ?? (offre === true ? 'I' : null),
      offre100Sante: offre ?? device.classe !== 'II',
    });
  }
  return rows;
}
