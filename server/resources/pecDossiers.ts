// PEC files (demandes de prise en charge): the list, the file, create/edit/delete, through the resource layer.
// Rules the layer cannot express live in the hooks: who sees which centre's files, the readable number, the mutual
// within its network, the lifecycle of the status, no change while a robot run is in progress, the live events.
import { and, eq, or, sql } from 'drizzle-orm';
import { can } from '../auth/principal';
import { mutuals, pecDossiers, shops } from '../db/schema';
import { conflict, invalidField } from '../http/errors';
import { bool, computed, date, dateTime, decimal, itemOnly, reference, text, timestamps } from '../hydra/fields';
import type { ResourceDeclaration, Row, Tenancy } from '../hydra/types';
import { publish } from '../events/bus';
import { assertNumeroFree, invoiceNumberHolder, nextNumero, searchWords } from '../pec/numbering';
import { embedReferences, expandItem, itemDetailsJson, openExecution, referencesJson } from '../pec/present';
import { assertPrescriberOfHolding } from '../pec/prescription';
import { paymentFilter } from '../pec/receivables';
import { lastRobotFailureJson, robotFailedWithinFilter } from '../pec/robotFailures';
import { fileKindFilter } from '../pec/fileKind';
import { archiveAuditAction, archivedFilter, archiveWrite, assertDeletable } from '../pec/archive';
import { fileWarnings, type ReadFile } from '../pec/warnings';
import { canUseShop, pecReadScope } from '../auth/fileVisibility';
import { dossierEvent } from '../pec/events';
import { assertOwnerSeesFile, FOLLOW_UP_CONDITION_FILTERS } from '../pec/followUps';
import { dpecDay, invoiceDateError, PAYMENT_PERMISSION, PEC_MESSAGES, todayInFrance, transitionError, type PecStatus } from '#domain/pec';
import { pecDossierSchema } from '#domain/pecSchemas';
import { paymentStateOf } from '#domain/payments';
import { ARCHIVE_REASON_LABELS, ARCHIVE_REASONS } from '#domain/archive';
import { ROBOT_FAILURE_WINDOW_DAYS } from '#domain/limits';
import { choicesOf } from '#domain/schemas';
import { PEC_PERMISSIONS } from '#domain/permissions';
import { DEFAULT_FOLLOW_UP_PENDING_DAYS, FOLLOW_UP_FILTER, FOLLOW_UP_PENDING_DAYS_KEY, isFollowUpDue } from '#domain/followUps';

const readOnly = { writable: false } as const;

/** A file belongs to its centre's organisation; the centre must be one the user sees (assigned, or all of them). */
const pecTenancy: Tenancy = {
  holdingColumn: pecDossiers.holdingId,
  readScope: pecReadScope,
  async assignHolding(principal, input, tx, existing) {
    if (typeof input.shop !== 'number') return undefined;
    const [shop] = await tx.select({ id: shops.id, holdingId: shops.holdingId }).from(shops).where(eq(shops.id, input.shop));
    if (!shop || !canUseShop(principal, shop)) throw invalidField('shop', PEC_MESSAGES.shopOutOfScope);
    if (existing && existing.holdingId !== shop.holdingId) throw invalidField('shop', PEC_MESSAGES.shopOutOfScope);
    return shop.holdingId;
  },
};

export const pecDossiersResource: ResourceDeclaration = {
  name: 'pec_dossiers',
  className: 'PecDossier',
  label: { singular: 'Demande de PEC', plural: 'Demandes de PEC', feminine: true },
  auditName: 'pec_dossier',
  auditLabel: 'numeroDossier',
  table: pecDossiers,
  idColumn: pecDossiers.id,
  // Written by every PEC action: its lists are read from the database each time (no list trigger).
  keptLists: false,
  fields: {
    numeroDossier: text(pecDossiers.numeroDossier, {
      iri: 'name',
      description: 'Numéro lisible, unique dans l’organisation ; généré si absent (PEC-2026-000123)',
      label: 'ID Pecflow',
    }),
    status: text(pecDossiers.status, {
      description: 'draft, processing, pending, approved, rejected, billed ou paid ; créée en draft, changée selon le cycle de vie',
      label: 'État',
    }),
    shop: reference('shops', pecDossiers.shopId, { required: true, description: 'Centre ({@id, id, name, displayName} en lecture)', label: 'Centre' }),
    network: reference('networks', pecDossiers.networkId, { description: 'Réseau (plateforme) ; celui de la mutuelle si absent', label: 'Réseau' }),
    mutual: reference('mutuals', pecDossiers.mutualId, {
      required: true,
      description: 'Mutuelle ({@id, id, name, code, networkId, network {id, name}} en lecture)',
      label: 'Mutuelle',
    }),
    numeroDossierAssure: text(pecDossiers.numeroDossierAssure, {
      required: true,
      description: 'Numéro du dossier patient dans le logiciel métier',
      label: 'N° dossier patient',
    }),
    numeroDevisAssure: text(pecDossiers.numeroDevisAssure, { required: true, description: 'Numéro du devis', label: 'N° devis' }),
    commentaire: text(pecDossiers.commentaire, { label: 'Commentaire' }),
    dateCreation: date(pecDossiers.dateCreation, { ...readOnly, description: 'Date de création du DPEC (robot)', label: 'Date de création du DPEC' }),
    totalTtc: decimal(pecDossiers.totalTtc, { description: 'Montant du devis TTC, en euros', label: 'Montant du devis' }),
    externalId: text(pecDossiers.externalId, {
      ...readOnly,
      description: 'Identifiant du dossier pour le robot (id_pecflow), attribué au premier DPEC',
      label: 'Identifiant robot',
    }),
    numDossierDpec: text(pecDossiers.numDossierDpec, { ...readOnly, label: 'N° dossier DPEC' }),
    numPec: text(pecDossiers.numPec, { ...readOnly, label: 'N° PEC' }),
    prixFraisReels: decimal(pecDossiers.prixFraisReels, { ...readOnly, label: 'Prix frais réels' }),
    baseSs: decimal(pecDossiers.baseSs, { ...readOnly, label: 'Base Sécurité sociale' }),
    partSs: decimal(pecDossiers.partSs, { ...readOnly, label: 'Part Sécurité sociale' }),
    partComplementaire: decimal(pecDossiers.partComplementaire, { ...readOnly, label: 'Part complémentaire' }),
    resteCharge: decimal(pecDossiers.resteCharge, { ...readOnly, label: 'Reste à charge' }),
    datePeremption: date(pecDossiers.datePeremption, { ...readOnly, description: 'Fin de validité de l’accord : facturer avant', label: 'Date de péremption' }),
    dateValidation: dateTime(pecDossiers.dateValidation, { ...readOnly, label: 'Date de validation' }),
    dateFacturationEffective: date(pecDossiers.dateFacturationEffective, { ...readOnly, label: 'Date de facturation' }),
    statutFacturation: bool(pecDossiers.statutFacturation, { ...readOnly, label: 'Facturée' }),
    numBilling: text(pecDossiers.numBilling, { description: 'N° de facture du logiciel (fenêtre de facturation, PATCH)', label: 'N° de facture' }),
    dateBilling: date(pecDossiers.dateBilling, { description: 'Date de facture du logiciel (fenêtre de facturation, PATCH)', label: 'Date de facture' }),
    detailRefus: text(pecDossiers.detailRefus, { ...readOnly, label: 'Motif du refus' }),
    prescriber: reference('prescribers', pecDossiers.prescriberId, {
      embed: ['civility', 'lastName', 'firstName', 'specialty', 'rpps'],
      description: 'Prescripteur ({@id, id, civility, lastName, firstName, specialty, rpps} en lecture), de l’organisation du dossier',
      label: 'Prescripteur',
    }),
    datePrescription: date(pecDossiers.datePrescription, { description: 'Date de la prescription (pas dans le futur)', label: 'Date de prescription' }),
    dateNaissanceBeneficiaire: date(pecDossiers.dateNaissanceBeneficiaire, {
      description: 'Date de naissance du bénéficiaire (facultative) : l’âge fixe les règles de renouvellement en optique',
      label: 'Date de naissance du bénéficiaire',
    }),
    // The insured (issue 29): what the portal asks for; rules in domain/pecSchemas.ts (insuredFields).
    nomAssure: text(pecDossiers.nomAssure, { description: 'Nom de l’assuré (facultatif)', label: 'Nom de l’assuré' }),
    prenomAssure: text(pecDossiers.prenomAssure, { description: 'Prénom de l’assuré (facultatif)', label: 'Prénom de l’assuré' }),
    numeroAdherent: text(pecDossiers.numeroAdherent, {
      description: 'Numéro d’adhérent (numéro de contrat) de l’assuré chez la mutuelle (facultatif ; lettres et chiffres)',
      label: 'N° d’adhérent',
    }),
    // A JSON value (@json in the context): plain objects without identity, [] when none.
    warnings: itemOnly('object', {
      description: 'Alertes calculées par le serveur [{code, message, side?, source?, details?}] ; [] sans alerte (fiche seulement)',
      label: 'Alertes',
    }),
    // Payment by the insurer (issue 15): set by a payment statement or 'Enregistrer un paiement' (server/pec/statements.ts, paymentHistory.ts).
    montantPaye: decimal(pecDossiers.montantPaye, { ...readOnly, label: 'Montant payé', description: 'Total reçu de l’assureur, en euros' }),
    datePaiement: date(pecDossiers.datePaiement, { ...readOnly, label: 'Date de paiement', description: 'Date du dernier paiement reçu' }),
    paiementPartiel: bool(pecDossiers.paiementPartiel, {
      ...readOnly,
      label: 'Paiement partiel',
      description: 'Payé moins que la part complémentaire : la demande reste facturée',
    }),
    montantDu: decimal(pecDossiers.montantDu, { ...readOnly, label: 'Montant restant dû', description: 'Ce que l’assureur doit encore après un paiement' }),
    // Archived (issue 25, domain/archive.ts): set and cleared by a PATCH of these fields alone (server/pec/archive.ts).
    archived: bool(pecDossiers.archived, {
      description:
        'Archivée : hors de la liste par défaut (filtre archived=true|all), gardée dans les exports et les statistiques ; PATCH {archived: true, archiveReason, archiveNote} par son auteur ou delete.pec, {archived: false} par delete.pec',
      label: 'Archivée',
    }),
    archivedAt: dateTime(pecDossiers.archivedAt, { ...readOnly, label: 'Archivée le' }),
    archiveReason: text(pecDossiers.archiveReason, {
      description: 'Motif de l’archivage : abandoned, duplicate, input_error ou other (avec archiveNote)',
      label: 'Motif de l’archivage',
      choices: choicesOf(ARCHIVE_REASON_LABELS, ARCHIVE_REASONS),
    }),
    archiveNote: text(pecDossiers.archiveNote, { description: 'Précision du motif « Autre »', label: 'Précision du motif' }),
    // Its author may archive it (domain/archive.ts): the screens compare it with the signed-in user.
    createdBy: reference('users', pecDossiers.createdById, { ...readOnly, description: 'Auteur de la demande (IRI de l’utilisateur)', label: 'Créée par' }),
    // Follow-ups (issue 28, domain/followUps.ts): its creator by default, any user who sees the file (server/pec/followUps.ts).
    owner: reference('users', pecDossiers.ownerId, {
      embed: ['firstName', 'lastName'],
      description: 'Suivi par : un utilisateur qui voit le dossier ({@id, id, firstName, lastName} en lecture) ; son auteur par défaut',
      label: 'Suivi par',
    }),
    followUpDate: date(pecDossiers.followUpDate, {
      description: 'Date de relance (facultative) : le dossier est « À relancer » à partir de ce jour',
      label: 'Relance le',
    }),
    // Why a file is "À relancer" (domain/followUps.ts, followUpReason): the day its status last changed, and on the file
    // whether it is due now (isFollowUpDue, with the system setting).
    statusChangedAt: dateTime(pecDossiers.statusChangedAt, {
      ...readOnly,
      description: 'Dernier changement d’état : un dossier « En attente » depuis ce moment est sans nouvelles de la mutuelle',
      label: 'État changé le',
    }),
    followUpDue: itemOnly('boolean', {
      description: `« À relancer » : sa date de relance est arrivée ou, sans date, il est en attente depuis plus du délai du réglage ${FOLLOW_UP_PENDING_DAYS_KEY} (fiche seulement ; la liste : filtre ${FOLLOW_UP_FILTER}=true)`,
      label: 'À relancer',
    }),
    appareils: itemOnly('array', { description: 'Appareils par oreille (fiche seulement)', label: 'Appareils' }),
    fileKind: itemOnly('string', {
      description: 'Type de dossier selon la spécialité du centre : audio, optical ou generic (fiche seulement)',
      label: 'Type de dossier',
    }),
    equipementOptique: itemOnly('object', {
      description: 'Équipement optique {classe, monture, verres {OD, OG}} d’un dossier opticien, sinon null (fiche seulement)',
      label: 'Équipement optique',
    }),
    workflowExecutions: itemOnly('array', {
      description: 'Exécutions du robot, les plus récentes d’abord (fiche seulement)',
      label: 'Exécutions du robot',
    }),
    robotFailure: computed('object', lastRobotFailureJson, {
      description: `Dernier appel robot du dossier s’il a échoué ces ${ROBOT_FAILURE_WINDOW_DAYS} derniers jours {kind: dpec|billing, messages, at}, sinon null (un appel réussi ensuite l’efface)`,
      label: 'Échec du robot',
    }),
    runInProgress: itemOnly('object', {
      description: 'Appel robot en cours {runId, kind, step, startedAt, deadlineAt} ou null (fiche seulement)',
      label: 'Appel robot en cours',
    }),
    ...timestamps(pecDossiers, true),
  },
  schema: { create: pecDossierSchema, update: pecDossierSchema },
  permissions: PEC_PERMISSIONS,
  tenancy: pecTenancy,
  search: [pecDossiers.searchText],
  // One trigram-indexed column kept by the database (migration 0003): fast at a million files. Every word of the term
  // in it (searchWords), each as written or folded for the numbers a statement names (migration 0038): the index reads
  // the words' conditions together; a short word (strpos, which the index does not serve) is checked on what it found.
  searchCondition(term) {
    const like = (text: string) => sql`${pecDossiers.searchText} like ${`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`;
    const contains = (text: string) => sql`strpos(${pecDossiers.searchText}, ${text}) > 0`;
    return and(...searchWords(term).map((word) => or(...word.texts.map(word.short ? contains : like)))) ?? sql`false`;
  },
  filters: {
    status: pecDossiers.status,
    shop: pecDossiers.shopId,
    mutual: pecDossiers.mutualId,
    network: pecDossiers.networkId,
    holding: pecDossiers.holdingId,
    statutFacturation: pecDossiers.statutFacturation,
    externalId: pecDossiers.externalId,
  },
  // The dashboard's links: files whose run failed within the last N days ("Échecs robot"), files of one kind, and the
  // payment discrepancies (payment=partial|overpaid, or unpaid).
  // And the follow-ups: aRelancer=true, suiviPar=me|none|{user}.
  conditionFilters: {
    robotFailedWithinDays: robotFailedWithinFilter,
    fileKind: fileKindFilter,
    payment: paymentFilter,
    archived: archivedFilter,
    ...FOLLOW_UP_CONDITION_FILTERS,
  },
  // Archived files leave the list unless asked for (archived=true: those alone; archived=all: every file).
  defaultFilters: { archived: 'false' },
  // The first is also the spec's dateFrom/dateTo.
  rangeFilters: {
    createdAt: pecDossiers.createdAt,
    datePeremption: pecDossiers.datePeremption,
    dateValidation: pecDossiers.dateValidation,
    // The dashboard's "facturées ce mois-ci" link lists what the stats count.
    dateFacturationEffective: pecDossiers.dateFacturationEffective,
  },
  order: {
    createdAt: pecDossiers.createdAt,
    numeroDossier: pecDossiers.numeroDossier,
    totalTtc: pecDossiers.totalTtc,
    status: pecDossiers.status,
    dateValidation: pecDossiers.dateValidation,
    datePeremption: pecDossiers.datePeremption,
    updatedAt: pecDossiers.updatedAt,
    followUpDate: pecDossiers.followUpDate,
    // The centre's and the mutual's names, as the list shows them (a file without a mutual last).
    shop: { through: pecDossiers.shopId, target: shops.id, value: shops.name },
    mutual: { through: pecDossiers.mutualId, target: mutuals.id, value: mutuals.name },
    id: pecDossiers.id,
  },
  frenchOrder: ['shop', 'mutual'],
  defaultOrder: ['createdAt', 'desc'],
  idsFollowDefaultOrder: true,
  deletion: { mode: 'hard' },
  // Thousands of files with their amounts: read page by page (the CSV export serves the whole list).
  unpaginatedAllowed: false,
  versioned: true,
  hooks: {
    async beforeWrite({ tx, principal }, input, values, existing) {
      await archiveWrite(tx, principal, input, values, existing);
      if (existing && 'archived' in values) return;
      if (existing && (await openExecution(tx, existing.id as number))) {
        throw conflict('Un appel robot est en cours sur ce dossier : modification impossible pour le moment.');
      }

      // The mutual within the chosen network; the file's network is the mutual's when none is named.
      if (typeof input.mutual === 'number') {
        const [mutual] = await tx.select({ networkId: mutuals.networkId }).from(mutuals).where(eq(mutuals.id, input.mutual));
        if (mutual) {
          if (typeof input.network === 'number' && mutual.networkId !== input.network) throw invalidField('mutual', PEC_MESSAGES.mutualOutsideNetwork);
          values.networkId = typeof input.network === 'number' ? input.network : mutual.networkId;
        }
      }

      const holdingId = (values.holdingId ?? existing?.holdingId) as number;
      await assertPrescriberOfHolding(tx, input.prescriber, holdingId);
      // 'Suivi par': its creator unless another user who sees the file is named (also when the file changes centre).
      if (!existing && input.owner == null) values.ownerId = principal.id;
      else if (input.owner != null || (existing && values.shopId !== undefined && values.shopId !== existing.shopId))
        await assertOwnerSeesFile(tx, values.ownerId ?? existing?.ownerId, { holdingId, shopId: (values.shopId ?? existing?.shopId) as number });
      // A billed file's invoice is the insurer's reference (and the statements'): it no longer changes.
      if (existing?.statutFacturation)
        for (const field of ['numBilling', 'dateBilling'] as const)
          if (field in values && (values[field] ?? null) !== (existing[field] ?? null)) throw invalidField(field, PEC_MESSAGES.invoiceLocked);
      // One invoice number per file of the organisation: a statement could not tell two files apart.
      if (existing && typeof values.numBilling === 'string' && values.numBilling.trim() && values.numBilling !== existing.numBilling) {
        const holder = await invoiceNumberHolder(tx, holdingId, values.numBilling, existing.id as number);
        if (holder) throw invalidField('numBilling', PEC_MESSAGES.invoiceNumberTaken(holder));
      }
      // The invoice follows the agreement: not dated before the DPEC's day (nor after today: the schema).
      if (existing && typeof values.dateBilling === 'string') {
        const refused = invoiceDateError(values.dateBilling, dpecDay(existing));
        if (refused) throw invalidField('dateBilling', refused);
      }
      if (!existing) {
        values.status = 'draft';
        values.createdById = principal.id;
        if (typeof input.numeroDossier === 'string') await assertNumeroFree(tx, holdingId, input.numeroDossier);
        else values.numeroDossier = await nextNumero(tx, holdingId);
        return;
      }

      if ('numeroDossier' in input) {
        if (typeof input.numeroDossier !== 'string') delete values.numeroDossier;
        else if (input.numeroDossier !== existing.numeroDossier) await assertNumeroFree(tx, holdingId, input.numeroDossier, existing.id as number);
      }
      const from = existing.status as string;
      const to = input.status as PecStatus | undefined;
      if (to === undefined || to === from) {
        delete values.status;
        return;
      }
      const refused = transitionError(from, to);
      if (refused) throw invalidField('status', refused);
      if (to === 'paid' && !can(principal, PAYMENT_PERMISSION))
        throw invalidField('status', 'Enregistrer un paiement demande la permission « Enregistrer les paiements ».');
      // Marked 'Payé' by hand: the payment columns follow the one rule (nothing due any more), its payments unchanged.
      if (to === 'paid')
        Object.assign(
          values,
          paymentStateOf(existing.partComplementaire as number | null, existing.montantPaye as number | null, existing.datePaiement as string | null, true),
        );
      if (to === 'billed') {
        values.statutFacturation = true;
        values.dateFacturationEffective = existing.dateFacturationEffective ?? todayInFrance();
      }
      if (to === 'approved' && !existing.dateValidation) values.dateValidation = new Date();
    },

    async afterWrite({ tx }, id, _input, existing) {
      const [row] = await tx
        .select({
          id: pecDossiers.id,
          holdingId: pecDossiers.holdingId,
          shopId: pecDossiers.shopId,
          numeroDossier: pecDossiers.numeroDossier,
          status: pecDossiers.status,
        })
        .from(pecDossiers)
        .where(eq(pecDossiers.id, id));
      if (row) await publish(tx, dossierEvent(existing ? 'dossier.updated' : 'dossier.created', row, row.status));
    },

    async beforeDelete({ tx }, existing) {
      if (await openExecution(tx, existing.id as number)) throw conflict('Suppression impossible : un appel robot est en cours sur ce dossier.');
      await assertDeletable(tx, existing);
      const row = existing as Row & { id: number; holdingId: number; shopId: number; numeroDossier: string; status: string };
      await publish(tx, dossierEvent('dossier.deleted', row, row.status));
    },

    auditAction: archiveAuditAction,

    async expand({ app, tx, principal }, items, rows, mode) {
      // A file's page has its references, devices, executions and earlier files read with it (itemRead), then its
      // warnings (the reference values and settings kept between reads when this is not a transaction).
      if (mode === 'item')
        for (const [index, item] of items.entries()) {
          const row = rows[index] as ReadFile['dossier'] & { __item_details: unknown };
          const read = expandItem(item, row.__item_details);
          item.warnings = await fileWarnings(tx, row.id, tx === app.db ? app.lists : undefined, { dossier: row, ...read }, principal);
          const now = new Date();
          const pendingDays = await app.settings.number(FOLLOW_UP_PENDING_DAYS_KEY, DEFAULT_FOLLOW_UP_PENDING_DAYS, tx);
          item.followUpDue = isFollowUpDue(row, todayInFrance(now), now, pendingDays);
        }
      else await embedReferences(tx, items, rows);
    },
    itemRead: { details: itemDetailsJson },
    listJson: referencesJson,
  },
};
