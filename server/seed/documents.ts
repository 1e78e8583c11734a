// Demo documents (issue 29): the prescription (ordonnance) of each optician's file the seed leaves in a robot run, so
// that the simulated portal, which refuses an optical request without one, grants it when the workers resume the run.
// The drafts have none: attaching one is part of trying the DPEC of an optician's file. Deterministic PDFs.
import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { Db } from '../db/connect';
import { pecDossiers, shops } from '../db/schema';
import type { SecretBox } from '../crypto';
import { storeDocument } from '../pec/documents';
import { PostgresDocumentStore } from '../pec/documentStore';
import { fileKindOf } from '#domain/fileKinds';

/** A one-page prescription, dated and numbered by the file (the standard font: its text is plain ASCII and Latin-1). */
function prescriptionPdf(numeroDossier: string, issuedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A5', margin: 40, info: { Title: `Ordonnance ${numeroDossier}`, Creator: 'Pecflow (démo)', CreationDate: issuedAt } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(14).text('Ordonnance');
  doc.moveDown().font('Helvetica').fontSize(10).text(`Dossier ${numeroDossier}`);
  doc.text('Verres correcteurs : renouvellement de l’équipement optique.');
  doc.end();
  return done;
}

export async function seedDemoDocuments(db: Db, secrets: SecretBox): Promise<void> {
  const store = new PostgresDocumentStore(secrets);
  const rows = await db
    .select({
      id: pecDossiers.id,
      holdingId: pecDossiers.holdingId,
      numeroDossier: pecDossiers.numeroDossier,
      createdAt: pecDossiers.createdAt,
      specialite: shops.specialite,
    })
    .from(pecDossiers)
    .innerJoin(shops, eq(shops.id, pecDossiers.shopId))
    .where(eq(pecDossiers.status, 'processing'));
  for (const row of rows.filter((r) => fileKindOf(r.specialite) === 'optical')) {
    await storeDocument(db, {
      holdingId: row.holdingId,
      dossierId: row.id,
      kind: 'prescription',
      name: `Ordonnance ${row.numeroDossier}.pdf`,
      mime: 'application/pdf',
      content: await prescriptionPdf(row.numeroDossier, row.createdAt),
      createdBy: null,
      store,
    });
  }
}
