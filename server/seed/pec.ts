// Demo PEC files: about 200 per organisation over the last six months, in every status, with their equipment (hearing
// aids per ear, or a frame and lenses, class A or B, for an optician's centre such as Riviera Nice Médecin) and robot
// executions as the simulator would have left them, and a few agreements expiring within 15 days (already notified).
// Drafts whose patient number ends with a simulator suffix (-ERRDPEC, -REFUS, -ATTENTE, -SILENCE...) let anyone
// reproduce each robot outcome from the screens. Deterministic: the same data on every installation.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/connect';
import { appareils, mutuals, networks, opticalEquipments, pecCounters, pecDossiers, shops, workflowExecutions } from '../db/schema';
import { colleaguesOf } from '../pec/followUps';
import { notifyFile } from '../notifications/service';
import { amountsFor, quoteOf, seededRandom, simulatorCallback, type EarDevice } from '../robot/simulator';
import { STEP_NAMES } from '../robot/steps';
import { opticalAmounts, type SimEquipment } from '../robot/opticalCatalogue';
import { fileKindOf, type FileKind } from '#domain/fileKinds';
import { formatDate } from '#domain/format';
import type { PecStatus } from '#domain/pec';
import type { DemoOrganisations } from './organisations';

const PER_ORGANISATION = 200;
/** How many files of each status an organisation gets (the rest are drafts). */
const MIX: [PecStatus, number][] = [
  ['processing', 3],
  ['pending', 22],
  ['approved', 52],
  ['rejected', 18],
  ['billed', 42],
  ['paid', 22],
];
const EXPIRING_SOON = 7;
/** Drafts whose failed first attempt happened within the last days, so the dashboard's "Échecs robot" has content. */
const RECENT_FAILURES = 3;
const DEMO_SUFFIXES = ['-ERRSCRAP', '-ERRDPEC', '-REFUS', '-ATTENTE', '-ERRFACT', '-SILENCE'];
const COMMENTS = [
  'Renouvellement oreille droite et gauche',
  'Premier appareillage, patient adressé par son ORL',
  'Patient souhaite une solution rechargeable',
  'Devis remis lors du rendez-vous du matin',
  'Relancer la mutuelle si pas de réponse sous 8 jours',
  null,
  null,
  null,
];
/** An optician's files speak of glasses (as many as COMMENTS: the same draw picks either). */
const OPTICAL_COMMENTS = [
  'Renouvellement lunettes de vue, correction en hausse',
  'Premiers verres progressifs, ordonnance de l’ophtalmologiste',
  'Patient souhaite une monture légère en titane',
  'Devis 100 % Santé et devis libre remis au patient',
  'Relancer la mutuelle si pas de réponse sous 8 jours',
  null,
  null,
  null,
];
const REFUSALS: Record<FileKind, string[]> = {
  audio: [
    'Équipement hors des garanties du contrat de l’assuré',
    'Renouvellement trop rapproché (moins de 4 ans)',
    'Droits de l’assuré non ouverts à la date du devis',
  ],
  optical: [
    'Équipement hors des garanties du contrat de l’assuré',
    'Renouvellement trop rapproché (moins de 2 ans)',
    'Droits de l’assuré non ouverts à la date du devis',
  ],
  generic: ['Équipement hors des garanties du contrat de l’assuré', 'Prescription absente ou illisible', 'Droits de l’assuré non ouverts à la date du devis'],
};

const DAY = 86_400_000;
const iso = (date: Date) => date.toISOString().slice(0, 10);
const chunks = <T>(list: T[], size: number) => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

type DossierInsert = typeof pecDossiers.$inferInsert;
type ExecutionInsert = typeof workflowExecutions.$inferInsert;

interface Plan {
  dossier: DossierInsert;
  devices: EarDevice[];
  /** An optician's file: its frame and lenses. */
  optical?: SimEquipment;
  /** Runs, each a list of steps (executions); the first step's id becomes the run id. */
  runs: ExecutionInsert[][];
  expiring: boolean;
}

function robotResponse(callbackType: string, body: Record<string, unknown>) {
  const { id_pecflow: _id, run_id: _run, ...payload } = body;
  const messages = (body.messages as string[]) ?? [];
  return { messages, data: { callback_type: callbackType, callback_payload: { ...payload, messages } } };
}

function step(
  type: 'scraping' | 'dpec' | 'billing',
  body: Record<string, unknown> | null,
  at: Date,
  outcome: string,
  extra: Partial<ExecutionInsert> = {},
): ExecutionInsert {
  const success = outcome === 'success' || outcome === 'pending';
  const callbackType = outcome === 'running' ? type : success ? type : `${type}_error`;
  const seconds = 40 + (at.getTime() % 50);
  return {
    holdingId: 0,
    dossierId: 0,
    workflowName: STEP_NAMES[type],
    runKind: type === 'billing' ? 'billing' : 'dpec',
    callbackType,
    success: outcome === 'running' ? null : success,
    outcome,
    startedAt: at,
    completedAt: outcome === 'running' ? null : new Date(at.getTime() + seconds * 1000),
    processingTimeMs: outcome === 'running' ? null : seconds * 1000,
    robotResponse: body ? robotResponse(callbackType, body) : { messages: [], data: { callback_type: type, callback_payload: { messages: [] } } },
    ...extra,
  };
}

export async function seedPecDossiers(db: Db, organisations: DemoOrganisations, now = new Date()): Promise<void> {
  const random = seededRandom('pecflow-demo-pec');
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const mutualRows = await db
    .select({ id: mutuals.id, networkId: mutuals.networkId, networkCode: networks.code })
    .from(mutuals)
    .leftJoin(networks, eq(networks.id, mutuals.networkId));
  const allShops = await db
    .select({ id: shops.id, holdingId: shops.holdingId, specialite: shops.specialite })
    .from(shops)
    .where(inArray(shops.id, Object.values(organisations.shopIds)));
  for (const holdingId of Object.values(organisations.holdingIds)) {
    const centreIds = allShops.filter((s) => s.holdingId === holdingId).map((s) => s.id);
    const kindOf = new Map(allShops.map((s) => [s.id, fileKindOf(s.specialite)]));
    // A file is written and followed by a colleague who sees its centre and acts on files (never read-only staff):
    // the rule of 'Suivi par' (server/pec/followUps.ts).
    const authorsOf = new Map<number, number[]>();
    for (const shopId of centreIds)
      authorsOf.set(
        shopId,
        (await colleaguesOf(db, { holdingId, shopId })).filter((c) => c.mayFollow).map((c) => c.id),
      );
    const statuses: PecStatus[] = MIX.flatMap(([status, n]) => Array<PecStatus>(n).fill(status));
    while (statuses.length < PER_ORGANISATION) statuses.push('draft');
    // Shuffled, so that statuses mix over the months; expiring agreements among recent approvals.
    for (let i = statuses.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [statuses[i], statuses[j]] = [statuses[j]!, statuses[i]!];
    }

    const plans: Plan[] = [];
    let expiringLeft = EXPIRING_SOON;
    let recentFailuresLeft = RECENT_FAILURES;
    let suffixIndex = 0;
    statuses.forEach((status, index) => {
      // Newest first: index 0 is today, the oldest about six months ago.
      const createdAt = new Date(now.getTime() - (index * 180 * DAY) / PER_ORGANISATION - Math.floor(random() * 6) * 3_600_000);
      const mutual = pick(mutualRows);
      let patient = `DP-${String(100000 + Math.floor(random() * 900000))}`;
      // The newest drafts carry the simulator's endings, one each.
      const demoSuffix = status === 'draft' ? DEMO_SUFFIXES[suffixIndex] : undefined;
      if (demoSuffix) {
        patient += demoSuffix;
        suffixIndex++;
      }
      const shopId = pick(centreIds);
      const kind = kindOf.get(shopId) ?? 'audio';
      const authors = authorsOf.get(shopId) ?? [];
      const author = authors.length ? pick(authors) : null;
      const dossier: DossierInsert = {
        holdingId,
        shopId,
        mutualId: mutual.id,
        networkId: mutual.networkId,
        numeroDossier: '',
        status,
        numeroDossierAssure: patient,
        numeroDevisAssure: `DEV-${createdAt.getFullYear()}-${String(1000 + Math.floor(random() * 9000))}`,
        commentaire: pick(kind === 'optical' ? OPTICAL_COMMENTS : COMMENTS),
        createdById: author,
        ownerId: author,
        statusChangedAt: createdAt,
        createdAt,
        updatedAt: createdAt,
      };
      const plan: Plan = { dossier, devices: [], runs: [], expiring: false };
      plans.push(plan);
      if (status === 'draft') {
        // Some drafts keep the trace of a failed first attempt ("Réessayer"); the newest few failed recently.
        const chance = random();
        if (chance < 0.12 || (!demoSuffix && recentFailuresLeft > 0)) {
          dossier.externalId = `pf-demo-${holdingId}-${index}`;
          const recently = !demoSuffix && recentFailuresLeft-- > 0 ? now.getTime() - (recentFailuresLeft + 1) * DAY : 0;
          const at = new Date(Math.max(createdAt.getTime() + 3_600_000, recently));
          plan.runs.push([
            step('scraping', { success: false, messages: ['scrapping_error: dossier patient introuvable dans le logiciel métier'] }, at, 'error', {
              previousStatus: 'draft',
            }),
          ]);
        }
        return;
      }

      dossier.externalId = `pf-demo-${holdingId}-${index}`;
      const file = { externalId: dossier.externalId, numeroDossierAssure: null, networkCode: mutual.networkCode, kind };
      const runAt = new Date(createdAt.getTime() + 2 * 3_600_000);
      const scraping = simulatorCallback('scraping', file, index, runAt);
      // The equipment the simulator's callbacks hold, whichever run posts them.
      ({ devices: plan.devices, optical: plan.optical } = quoteOf(file));
      const amounts = plan.optical ? opticalAmounts(plan.optical) : amountsFor(plan.devices);
      dossier.totalTtc = amounts.totalTtc;
      dossier.updatedAt = runAt;
      const dpecRun: ExecutionInsert[] = [step('scraping', scraping, runAt, 'success', { previousStatus: 'draft' })];
      plan.runs.push(dpecRun);
      const dpecAt = new Date(runAt.getTime() + 60_000);

      if (status === 'processing') {
        // A run in progress: the robot is filing the request (resumed by the workers on start).
        dossier.createdAt = new Date(now.getTime() - 120_000);
        dpecRun[0] = step('scraping', scraping, new Date(now.getTime() - 90_000), 'success', { previousStatus: 'draft' });
        dpecRun.push(
          step('dpec', null, new Date(now.getTime() - 60_000), 'running', { previousStatus: 'draft', deadlineAt: new Date(now.getTime() + 9 * 60_000) }),
        );
        dossier.updatedAt = now;
        return;
      }
      const dpecBody = simulatorCallback('dpec', file, index, runAt);
      dossier.dateCreation = iso(runAt);
      dossier.numDossierDpec = dpecBody.num_dossier as string;
      if (status === 'pending') {
        const {
          num_pec: _n,
          prix_frais_reels: _p,
          base_ss: _b,
          part_ss: _s,
          part_complementaire: _c,
          reste_charge: _r,
          date_peremption: _d,
          ...pending
        } = dpecBody;
        dpecRun.push(step('dpec', { ...pending, messages: ['Demande de prise en charge déposée', 'Réponse de la mutuelle en attente'] }, dpecAt, 'pending'));
        return;
      }
      if (status === 'rejected') {
        dossier.detailRefus = pick(REFUSALS[kind]);
        dpecRun.push(
          step(
            'dpec',
            {
              success: false,
              num_dossier: dossier.numDossierDpec,
              messages: ['Demande de prise en charge déposée', 'Refus de la mutuelle'],
              detail_refus: dossier.detailRefus,
            },
            dpecAt,
            'refused',
          ),
        );
        return;
      }
      // approved, billed, paid
      dpecRun.push(step('dpec', dpecBody, dpecAt, 'success'));
      Object.assign(dossier, {
        numPec: dpecBody.num_pec as string,
        prixFraisReels: amounts.prixFraisReels,
        baseSs: amounts.baseSs,
        partSs: amounts.partSs,
        partComplementaire: amounts.partComplementaire,
        resteCharge: amounts.resteCharge,
        dateValidation: dpecAt,
        datePeremption: iso(new Date(runAt.getTime() + 90 * DAY)),
      });
      if (status === 'approved') {
        if (expiringLeft > 0 && index > 20) {
          expiringLeft--;
          plan.expiring = true;
          dossier.datePeremption = iso(new Date(now.getTime() + (2 + Math.floor(random() * 12)) * DAY));
        }
        return;
      }
      const billedAt = new Date(dpecAt.getTime() + (5 + Math.floor(random() * 20)) * DAY);
      const billingAt = billedAt > now ? new Date(now.getTime() - 3_600_000) : billedAt;
      Object.assign(dossier, {
        statutFacturation: true,
        numBilling: `FAC-${billingAt.getFullYear()}-${String(Math.floor(random() * 90000) + 10000)}`,
        dateBilling: iso(billingAt),
        dateFacturationEffective: iso(billingAt),
      });
      plan.runs.push([
        step('billing', { success: true, messages: ['Facture transmise à la mutuelle'], date_facturation_effective: iso(billingAt) }, billingAt, 'success', {
          previousStatus: 'approved',
        }),
      ]);
    });

    // Readable numbers in creation order, one counter per year.
    const lastByYear = new Map<number, number>();
    for (const plan of [...plans].sort((a, b) => a.dossier.createdAt!.getTime() - b.dossier.createdAt!.getTime())) {
      const year = plan.dossier.createdAt!.getFullYear();
      const value = (lastByYear.get(year) ?? 0) + 1;
      lastByYear.set(year, value);
      plan.dossier.numeroDossier = `PEC-${year}-${String(value).padStart(6, '0')}`;
    }

    for (const batch of chunks(plans, 100)) {
      const ids = await db
        .insert(pecDossiers)
        .values(batch.map((p) => p.dossier))
        .returning({ id: pecDossiers.id });
      const devices: (typeof appareils.$inferInsert)[] = [];
      const equipments: (typeof opticalEquipments.$inferInsert)[] = [];
      const firstSteps: ExecutionInsert[] = [];
      const laterSteps: { runIndex: number; step: ExecutionInsert }[] = [];
      batch.forEach((plan, i) => {
        const dossierId = ids[i]!.id;
        for (const d of plan.devices) {
          devices.push({
            holdingId,
            dossierId,
            oreille: d.oreille,
            fabricant: d.fabricant,
            marque: d.marque,
            modele: d.modele,
            prixTtc: d.prix / 100,
            codeLpp: d.codeLpp,
            premierAppareillage: d.premierAppareillage,
            forme: d.forme,
            classe: d.classe,
            offre100Sante: d.classe === 'I',
          });
        }
        if (plan.optical) equipments.push(opticalRow(plan.optical, holdingId, dossierId));
        for (const run of plan.runs) {
          const runIndex = firstSteps.length;
          firstSteps.push({ ...run[0]!, holdingId, dossierId });
          for (const later of run.slice(1)) laterSteps.push({ runIndex, step: { ...later, holdingId, dossierId } });
        }
      });
      if (devices.length) await db.insert(appareils).values(devices);
      if (equipments.length) await db.insert(opticalEquipments).values(equipments);
      if (firstSteps.length) {
        const runIds = await db.insert(workflowExecutions).values(firstSteps).returning({ id: workflowExecutions.id });
        await db
          .update(workflowExecutions)
          .set({ runId: sql`${workflowExecutions.id}` })
          .where(
            inArray(
              workflowExecutions.id,
              runIds.map((r) => r.id),
            ),
          );
        const later = laterSteps.map(({ runIndex, step: s }) => ({ ...s, runId: runIds[runIndex]!.id }));
        if (later.length) await db.insert(workflowExecutions).values(later);
      }
      // The expiry notifications the daily scan would have sent.
      for (const [i, plan] of batch.entries()) {
        if (!plan.expiring) continue;
        const file = { id: ids[i]!.id, holdingId, shopId: plan.dossier.shopId };
        await notifyFile(db, file, {
          kind: 'expiry',
          title: `PEC bientôt périmée — ${plan.dossier.numeroDossier}`,
          description: `L’accord de prise en charge expire le ${formatDate(plan.dossier.datePeremption)} : facturez avant cette date.`,
        });
        await db.update(pecDossiers).set({ expiryNotifiedFor: plan.dossier.datePeremption }).where(eq(pecDossiers.id, file.id));
      }
    }
    for (const [year, lastValue] of lastByYear) {
      await db
        .insert(pecCounters)
        .values({ holdingId, year, lastValue })
        .onConflictDoUpdate({ target: [pecCounters.holdingId, pecCounters.year], set: { lastValue } });
    }
  }
}

/** An optician's file's equipment as its table row. */
function opticalRow(e: SimEquipment, holdingId: number, dossierId: number): typeof opticalEquipments.$inferInsert {
  return {
    holdingId,
    dossierId,
    classe: e.classe,
    montureMarque: e.frame.marque,
    montureModele: e.frame.modele,
    monturePrix: e.frame.prix / 100,
    montureCodeLpp: e.frame.codeLpp,
    verreOd: e.lenses.OD,
    verreOg: e.lenses.OG,
  };
}
