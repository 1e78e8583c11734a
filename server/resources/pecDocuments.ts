// The documents of PEC files (issue 29): /api/pec_documents?dossier=/api/pec_dossiers/{id}. Created by
// POST /api/pec_documents as multipart/form-data (file, dossier, kind: API Platform's file-upload convention,
// server/pec/documentRoutes.ts), their bytes served at `contentUrl`; listed, read and deleted here like any resource.
// A document is seen by whoever sees its file (the files' rule: their organisation, their centres).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pecDocuments, pecDossiers } from '../db/schema';
import { defineResource } from '../hydra/define';
import { derived, integer, reference, text, timestamp } from '../hydra/fields';
import type { Tenancy } from '../hydra/types';
import { isPlatformAdmin, pecReadScope, seesWholeOrganisation } from '../auth/fileVisibility';
import { conflict } from '../http/errors';
import { assertFileNotArchived } from '../pec/archive';
import { iriOf } from '#domain/iri';
import { BILLED_FILE_STATUSES, DOCUMENT_KIND_CHOICES, DOCUMENT_MESSAGES, DOCUMENT_PERMISSIONS, ROBOT_AUTHOR } from '#domain/documents';

const readOnly = { writable: false } as const;
const noInput = z.object({});

const documentTenancy: Tenancy = {
  holdingColumn: pecDocuments.holdingId,
  readScope(principal) {
    if (isPlatformAdmin(principal)) return undefined;
    if (!principal.holdingId) return sql`false`;
    const holding = eq(pecDocuments.holdingId, principal.holdingId);
    if (seesWholeOrganisation(principal)) return holding;
    return and(holding, sql`${pecDocuments.dossierId} in (select ${pecDossiers.id} from ${pecDossiers} where ${pecReadScope(principal)})`);
  },
};

/** Where a document's bytes are served. */
export const contentUrlOf = (id: number) => `${iriOf('pec_documents', id)}/content`;

export const pecDocumentsResource = defineResource({
  name: 'pec_documents',
  label: { singular: 'Document', plural: 'Documents' },
  table: pecDocuments,
  fields: {
    dossier: reference('pec_dossiers', pecDocuments.dossierId, { ...readOnly, required: true, embed: ['numeroDossier'], label: 'Demande de PEC' }),
    kind: text(pecDocuments.kind, { ...readOnly, required: true, label: 'Type de document', choices: DOCUMENT_KIND_CHOICES }),
    originalName: text(pecDocuments.originalName, { ...readOnly, label: 'Nom du fichier', iri: 'name' }),
    size: integer(pecDocuments.size, { ...readOnly, label: 'Taille', description: 'Taille du fichier, en octets' }),
    mimeType: text(pecDocuments.mimeType, {
      ...readOnly,
      label: 'Format',
      description: 'application/pdf, image/jpeg ou image/png, d’après le contenu du fichier',
    }),
    sha256: text(pecDocuments.sha256, { ...readOnly, label: 'Empreinte SHA-256' }),
    contentUrl: derived('string', (row) => contentUrlOf(row.id as number), {
      sql: sql`'/api/pec_documents/' || ${pecDocuments.id} || '/content'`,
      label: 'Contenu',
      description: 'L’adresse où le fichier est servi (GET, chaque lecture est inscrite au journal d’audit)',
    }),
    createdBy: reference('users', pecDocuments.createdById, { ...readOnly, embed: ['firstName', 'lastName'], label: 'Ajouté par' }),
    source: text(pecDocuments.source, {
      ...readOnly,
      label: 'Origine',
      description: 'user : ajouté par une personne (ou imprimé pour elle) ; robot : rapporté par le robot avec ses résultats',
      choices: [
        { id: 'user', name: 'Utilisateur' },
        { id: 'robot', name: ROBOT_AUTHOR },
      ],
    }),
    createdAt: timestamp(pecDocuments.createdAt, 'Ajouté le'),
  },
  schema: { create: noInput, update: noInput },
  permissions: {
    view: DOCUMENT_PERMISSIONS.view,
    create: DOCUMENT_PERMISSIONS.create,
    update: DOCUMENT_PERMISSIONS.create,
    delete: DOCUMENT_PERMISSIONS.delete,
  },
  tenancy: documentTenancy,
  // Created by its upload route (multipart/form-data), never changed: deleted and added again.
  creatable: false,
  upload: true,
  updatable: false,
  filters: { dossier: pecDocuments.dossierId, kind: pecDocuments.kind },
  order: { createdAt: pecDocuments.createdAt, originalName: pecDocuments.originalName, kind: pecDocuments.kind, id: pecDocuments.id },
  defaultOrder: ['createdAt', 'asc'],
  idsFollowDefaultOrder: true,
  auditLabel: 'originalName',
  hooks: {
    async beforeDelete({ app, tx }, existing) {
      // An archived file is kept as it was, its documents with it (an upload to it is refused the same way).
      await assertFileNotArchived(tx, existing.dossierId as number);
      // The insurer's agreement a file was billed on is the proof of what was billed (inspections): kept. One added
      // after the billing day was not billed on, and may go (a misfiled scan must not stay for good).
      if (existing.kind === 'agreement') {
        const [billedOn] = await tx
          .select({ id: pecDossiers.id })
          .from(pecDossiers)
          .where(
            and(
              eq(pecDossiers.id, existing.dossierId as number),
              inArray(pecDossiers.status, [...BILLED_FILE_STATUSES]),
              sql`(${pecDossiers.dateFacturationEffective} is null
                or (${new Date(existing.createdAt as string | Date).toISOString()}::timestamptz at time zone 'Europe/Paris')::date <= ${pecDossiers.dateFacturationEffective})`,
            ),
          );
        if (billedOn) throw conflict(DOCUMENT_MESSAGES.agreementOfBilledFile);
      }
      await app.documents.delete(tx, existing.id as number);
    },
  },
});
