// The insurer's agreement the built-in robot brings back with an approval (issue 29, part 3): a one-page PDF as a
// portal would issue it, posted through POST /api/callbacks/documents like an external robot's. Written with pdfkit in
// DejaVu Sans like the file's summary (server/pec/summary.ts: the standard fonts lack the spaces formatEuros writes).
// Dated by the run's start, never the clock: a retried job posts the same bytes, which the callback keeps once.
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatDate, formatEuros } from '#domain/format';
import type { DocumentCallback } from '#domain/pecSchemas';

const { resolve } = createRequire(import.meta.url);
const FONTS = { regular: resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };
const MARGIN = 50;

interface AgreementFile {
  dossier: { externalId: string | null; numeroDossier: string; nomAssure: string | null; prenomAssure: string | null; numeroAdherent: string | null };
  networkName: string | null;
  mutualName: string | null;
}

/** The PDF bytes of the agreement for the simulator's approval `result` (its dpec callback body). */
export function agreementPdf(file: AgreementFile, result: Record<string, unknown>, issuedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Accord de prise en charge ${String(result.num_pec)}`,
      Author: file.mutualName ?? 'Mutuelle',
      Creator: 'Pecflow (simulateur)',
      CreationDate: issuedAt,
    },
    lang: 'fr-FR',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolvePdf, reject) => {
    doc.on('end', () => resolvePdf(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);

  const amount = (value: unknown) => (typeof value === 'number' ? formatEuros(value) : '—');
  const date = (value: unknown) => (typeof value === 'string' ? formatDate(value) : '—');
  const insured = [file.dossier.prenomAssure, file.dossier.nomAssure].filter(Boolean).join(' ') || '—';

  doc.font('bold').fontSize(16).text('Accord de prise en charge');
  doc
    .moveDown(0.3)
    .font('regular')
    .fontSize(10)
    .fillColor('#555555')
    .text(`${file.mutualName ?? 'Mutuelle'} — réseau ${file.networkName ?? '—'}`);
  doc.moveDown(1).fillColor('black');
  const rows: [string, string][] = [
    ['N° de prise en charge', String(result.num_pec ?? '—')],
    ['N° de dossier DPEC', String(result.num_dossier ?? '—')],
    ['Dossier du centre', file.dossier.numeroDossier],
    ['Assuré', insured],
    ['N° d’adhérent', file.dossier.numeroAdherent ?? '—'],
    ['Date de l’accord', date(result.date_creation)],
    ['Valable jusqu’au', date(result.date_peremption)],
    ['Prix (frais réels)', amount(result.prix_frais_reels)],
    ['Part Sécurité sociale', amount(result.part_ss)],
    ['Part complémentaire', amount(result.part_complementaire)],
    ['Reste à charge', amount(result.reste_charge)],
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('regular').fontSize(10).fillColor('#555555').text(label, MARGIN, y, { width: 180 });
    doc
      .font('bold')
      .fillColor('black')
      .text(value, MARGIN + 180, y);
    doc.moveDown(0.2);
  }
  doc
    .moveDown(1.5)
    .font('regular')
    .fontSize(9)
    .fillColor('#555555')
    .text('Document émis par le portail du réseau, à conserver avec le dossier pour la facturation et les contrôles.', MARGIN);
  doc.end();
  return done;
}

/** The body the simulator posts to POST /api/callbacks/documents for an approval. */
export async function simulatorAgreement(file: AgreementFile, result: Record<string, unknown>, issuedAt: Date): Promise<DocumentCallback> {
  const pdf = await agreementPdf(file, result, issuedAt);
  const number = String(result.num_pec ?? 'accord').replace(/[^A-Za-z0-9-]+/g, '_');
  return {
    id_pecflow: file.dossier.externalId ?? '',
    run_id: typeof result.run_id === 'number' ? result.run_id : undefined,
    kind: 'agreement',
    name: `Accord de prise en charge ${number}.pdf`,
    content_base64: pdf.toString('base64'),
  };
}
