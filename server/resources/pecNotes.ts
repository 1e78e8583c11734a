// A PEC file's notes thread (issue 28, domain/followUps.ts): /api/pec_notes?dossier=/api/pec_dossiers/{id}, oldest
// first. Seen by whoever sees the file, written by who may edit files; a note is changed or deleted only by its author
// within 15 minutes. An `@Prénom Nom` of a colleague who sees the file notifies them (server/pec/followUps.ts). Notes
// live apart from the file's columns: nothing here is sent to the robot.
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, pecNotes } from '../db/schema';
import { defineResource } from '../hydra/define';
import { reference, text, timestamps } from '../hydra/fields';
import type { Tenancy } from '../hydra/types';
import { isPlatformAdmin, pecReadScope, seesWholeOrganisation } from '../auth/fileVisibility';
import { conflict, forbidden, invalidField } from '../http/errors';
import { assertFileNotArchived } from '../pec/archive';
import { notifyMentions } from '../pec/followUps';
import { ARCHIVE_MESSAGES } from '#domain/archive';
import { NOTE_MESSAGES, noteEditable } from '#domain/followUps';
import { pecNoteSchema, pecNoteUpdateSchema } from '#domain/pecSchemas';
import { PEC_PERMISSIONS } from '#domain/permissions';

const OUT_OF_SCOPE = 'Demande de PEC introuvable ou hors de votre périmètre.';

/** A note is seen by whoever sees its file; it belongs to the file's organisation. */
const noteTenancy: Tenancy = {
  holdingColumn: pecNotes.holdingId,
  readScope(principal) {
    if (isPlatformAdmin(principal)) return undefined;
    if (!principal.holdingId) return sql`false`;
    const holding = eq(pecNotes.holdingId, principal.holdingId);
    if (seesWholeOrganisation(principal)) return holding;
    return and(holding, sql`${pecNotes.dossierId} in (select ${pecDossiers.id} from ${pecDossiers} where ${pecReadScope(principal)})`);
  },
  async assignHolding(principal, input, tx, existing) {
    if (existing || typeof input.dossier !== 'number') return undefined;
    const [file] = await tx
      .select({ holdingId: pecDossiers.holdingId, archived: pecDossiers.archived, numeroDossier: pecDossiers.numeroDossier })
      .from(pecDossiers)
      .where(and(eq(pecDossiers.id, input.dossier), pecReadScope(principal)));
    if (!file) throw invalidField('dossier', OUT_OF_SCOPE);
    // An archived file is kept as it was, its thread too.
    if (file.archived) throw conflict(ARCHIVE_MESSAGES.frozen(file.numeroDossier));
    return file.holdingId;
  },
};

/** Its author, within the window: else 403 (someone else's note) or 409 (too late); and its file not archived (409, as a new note). */
async function assertChangeable(tx: DbOrTx, principalId: number, note: Record<string, unknown>) {
  if (note.authorId !== principalId) throw forbidden(NOTE_MESSAGES.notAuthor);
  if (!noteEditable(note.createdAt as Date)) throw conflict(NOTE_MESSAGES.windowClosed);
  await assertFileNotArchived(tx, note.dossierId as number);
}

export const pecNotesResource = defineResource({
  name: 'pec_notes',
  label: { singular: 'Note', plural: 'Notes', feminine: true },
  table: pecNotes,
  fields: {
    dossier: reference('pec_dossiers', pecNotes.dossierId, { required: true, label: 'Demande de PEC', description: 'La demande de la note (non modifiable)' }),
    body: text(pecNotes.body, { required: true, iri: 'name', label: 'Note', description: 'Texte ; @Prénom Nom mentionne un collègue qui voit le dossier' }),
    author: reference('users', pecNotes.authorId, { writable: false, embed: ['firstName', 'lastName'], label: 'Auteur' }),
    ...timestamps(pecNotes, true),
  },
  schema: { create: pecNoteSchema, update: pecNoteUpdateSchema },
  // Read with the files; written by who may change them (read-only staff read the thread).
  permissions: { view: PEC_PERMISSIONS.view, create: PEC_PERMISSIONS.update, update: PEC_PERMISSIONS.update, delete: PEC_PERMISSIONS.update },
  tenancy: noteTenancy,
  filters: { dossier: pecNotes.dossierId, author: pecNotes.authorId },
  order: { createdAt: pecNotes.createdAt, id: pecNotes.id },
  defaultOrder: ['createdAt', 'asc'],
  idsFollowDefaultOrder: true,
  auditLabel: 'body',
  hooks: {
    async beforeWrite({ principal, tx }, _input, values, existing) {
      if (!existing) {
        values.authorId = principal.id;
        return;
      }
      await assertChangeable(tx, principal.id, existing);
      delete values.dossierId;
    },
    async beforeDelete({ principal, tx }, existing) {
      await assertChangeable(tx, principal.id, existing);
    },
    async afterWrite({ tx, principal }, id, _input, existing) {
      await notifyMentions(tx, principal, id, (existing?.body as string | undefined) ?? '');
    },
  },
});
