// "Imprimer le récapitulatif" (issue 29, part 5): a file's summary as a one- or two-page A4 PDF for the patient to sign,
// written with pdfkit: the centre (name, address, FINESS), the insured, the mutual and the network, the PEC number and
// its expiry, the devices or the optical equipment with their LPP codes and prices, the amounts and a signature block.
// French formats come from domain/format.ts; Intl writes narrow no-break spaces (1 234,50 €), which the standard PDF
// fonts lack: the text is set in DejaVu Sans (the dejavu-fonts-ttf package), embedded and subset by pdfkit.
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { EYE_LABELS, EYES, LENS_TYPE_LABELS, type EquipementOptique } from '#domain/optical';
import { formatDate, formatEuros, formatParisDateTime } from '#domain/format';
import { pecStatusLabel } from '#domain/pec';

const { resolve } = createRequire(import.meta.url);
const FONTS = { regular: resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), bold: resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf') };

export interface SummaryCentre {
  name: string;
  displayName: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  finess: string | null;
  phone: string | null;
}

export interface SummaryDevice {
  oreille: string;
  fabricant: string | null;
  marque: string | null;
  modele: string | null;
  codeLpp: string | null;
  prixTtc: number | null;
}

/** The file as GET /api/pec_dossiers/{id} presents it (the fields the summary prints). */
export interface SummaryFile {
  numeroDossier: string;
  status: string;
  numeroDossierAssure: string | null;
  numeroDevisAssure: string | null;
  nomAssure: string | null;
  prenomAssure: string | null;
  numeroAdherent: string | null;
  dateNaissanceBeneficiaire: string | null;
  mutual: { name?: string | null } | null;
  network: { name?: string | null } | null;
  numPec: string | null;
  numDossierDpec: string | null;
  datePeremption: string | null;
  totalTtc: number | null;
  prixFraisReels: number | null;
  baseSs: number | null;
  partSs: number | null;
  partComplementaire: number | null;
  resteCharge: number | null;
  appareils: SummaryDevice[];
  equipementOptique: EquipementOptique | null;
}

const EAR_LABELS: Record<string, string> = { droite: 'Oreille droite', gauche: 'Oreille gauche' };
const NONE = '—';
const MARGIN = 50;
const GREY = '#555555';
const LINE = '#bbbbbb';

/** The non-empty parts, each once (a maker is often also the brand). */
const joined = (...parts: (string | null | undefined)[]) => [...new Set(parts.map((p) => p?.trim()).filter(Boolean))].join(' ');

/** One equipment line of the table: what it is, its LPP code, its price. */
interface EquipmentLine {
  label: string;
  detail: string;
  codeLpp: string | null;
  price: number | null;
}

function equipmentLines(file: SummaryFile): EquipmentLine[] {
  const optical = file.equipementOptique;
  if (optical) {
    const lines: EquipmentLine[] = [];
    const frame = optical.monture;
    if (frame && (frame.marque || frame.modele || frame.prix !== null))
      lines.push({ label: 'Monture', detail: joined(frame.marque, frame.modele) || NONE, codeLpp: frame.codeLpp, price: frame.prix });
    for (const eye of EYES) {
      const lens = optical.verres?.[eye];
      if (!lens) continue;
      const detail = joined(LENS_TYPE_LABELS[lens.type] ?? lens.type, lens.indice ? `indice ${lens.indice}` : null, lens.traitements?.join(', ') || null);
      lines.push({ label: `Verre — ${EYE_LABELS[eye]}`, detail: detail || NONE, codeLpp: lens.codeLpp, price: lens.prix });
    }
    return lines;
  }
  return file.appareils.map((d) => ({
    label: EAR_LABELS[d.oreille] ?? d.oreille,
    detail: joined(d.fabricant, d.marque, d.modele) || NONE,
    codeLpp: d.codeLpp,
    price: d.prixTtc,
  }));
}

/** The file's number as a file name: letters, digits and hyphens only (a header value). */
export const summaryFileName = (numeroDossier: string) => numeroDossier.replace(/[^A-Za-z0-9-]+/g, '_');

/** The summary's PDF bytes. `printedAt` is the moment written at its foot. */
export function summaryPdf(file: SummaryFile, centre: SummaryCentre, printedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Récapitulatif de la demande ${file.numeroDossier}`, Author: centre.displayName || centre.name, Creator: 'Pecflow' },
    lang: 'fr-FR',
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', FONTS.regular);
  doc.registerFont('bold', FONTS.bold);
  const width = doc.page.width - 2 * MARGIN;
  const left = MARGIN;

  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(11).fillColor('black').text(text, left);
    const y = doc.y + 2;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor(LINE)
      .stroke();
    doc.moveDown(0.4);
  };
  /** Label / value pairs on two columns. */
  const pairs = (rows: [string, string][]) => {
    const labelWidth = 170;
    for (const [label, value] of rows) {
      const y = doc.y;
      doc.font('regular').fontSize(9.5).fillColor(GREY).text(label, left, y, { width: labelWidth });
      doc
        .font('regular')
        .fillColor('black')
        .text(value, left + labelWidth, y, { width: width - labelWidth });
      doc.moveDown(0.15);
    }
  };

  // The centre, then the title.
  doc
    .font('bold')
    .fontSize(14)
    .text(centre.displayName || centre.name, left);
  doc.font('regular').fontSize(9.5).fillColor(GREY);
  if (centre.displayName && centre.displayName !== centre.name) doc.text(centre.name);
  if (centre.street) doc.text(centre.street);
  const town = joined(centre.postalCode, centre.city);
  if (town) doc.text(town);
  doc.text(joined(centre.finess ? `FINESS ${centre.finess}` : null, centre.phone ? `— Tél. ${centre.phone}` : null) || 'FINESS non renseigné');
  doc.moveDown(1.2).font('bold').fontSize(16).fillColor('black').text('Récapitulatif de prise en charge', left, doc.y, { width, align: 'center' });
  doc
    .font('regular')
    .fontSize(10)
    .fillColor(GREY)
    .text(`Demande ${file.numeroDossier} — ${pecStatusLabel(file.status)}`, { width, align: 'center' });

  heading('Assuré');
  pairs([
    ['Nom', file.nomAssure ?? NONE],
    ['Prénom', file.prenomAssure ?? NONE],
    ['N° d’adhérent', file.numeroAdherent ?? NONE],
    ['Date de naissance du bénéficiaire', file.dateNaissanceBeneficiaire ? formatDate(file.dateNaissanceBeneficiaire) : NONE],
    ['N° dossier patient', file.numeroDossierAssure ?? NONE],
  ]);

  heading('Complémentaire santé');
  pairs([
    ['Mutuelle', file.mutual?.name ?? NONE],
    ['Réseau', file.network?.name ?? NONE],
    ['N° PEC', file.numPec ?? 'Pas encore accordée'],
    ['Valable jusqu’au', file.datePeremption ? formatDate(file.datePeremption) : NONE],
    ['N° dossier DPEC', file.numDossierDpec ?? NONE],
    ['N° devis', file.numeroDevisAssure ?? NONE],
  ]);

  heading(file.equipementOptique ? 'Équipement optique' : 'Appareils');
  const lines = equipmentLines(file);
  const columns = [
    { title: 'Élément', x: left, w: 130 },
    { title: 'Description', x: left + 130, w: 215 },
    { title: 'Code LPP', x: left + 345, w: 70 },
    { title: 'Prix TTC', x: left + 415, w: width - 415, align: 'right' as const },
  ];
  const row = (cells: string[], font: 'regular' | 'bold') => {
    const y = doc.y;
    doc.font(font).fontSize(9.5).fillColor('black');
    const heights = cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.w - 6 }));
    cells.forEach((cell, i) => doc.text(cell, columns[i]!.x, y, { width: columns[i]!.w - 6, align: columns[i]!.align ?? 'left' }));
    doc.y = y + Math.max(...heights) + 4;
    doc.x = left;
  };
  row(
    columns.map((c) => c.title),
    'bold',
  );
  if (lines.length === 0) row(['Aucun équipement renseigné', '', '', ''], 'regular');
  for (const line of lines) row([line.label, line.detail, line.codeLpp ?? NONE, formatEuros(line.price, NONE)], 'regular');

  heading('Montants');
  pairs([
    ['Montant du devis', formatEuros(file.totalTtc, NONE)],
    ['Prix frais réels', formatEuros(file.prixFraisReels, NONE)],
    ['Base Sécurité sociale', formatEuros(file.baseSs, NONE)],
    ['Part Sécurité sociale', formatEuros(file.partSs, NONE)],
    ['Part complémentaire', formatEuros(file.partComplementaire, NONE)],
  ]);
  const y = doc.y + 2;
  doc.font('bold').fontSize(11).fillColor('black').text('Reste à charge', left, y, { width: 170 });
  doc.text(formatEuros(file.resteCharge, NONE), left + 170, y);

  // The signature block, kept whole on the page (a second page when the equipment is long).
  if (doc.y + 150 > doc.page.height - MARGIN) doc.addPage();
  heading('Signatures');
  const top = doc.y + 4;
  const half = (width - 20) / 2;
  doc.font('regular').fontSize(9.5).fillColor(GREY);
  doc.text('Le patient (ou son représentant)', left, top, { width: half });
  doc.text('Le professionnel de santé', left + half + 20, top, { width: half });
  doc.text('Date : ____ / ____ / ________', left, top + 16, { width: half });
  doc.text('Cachet du centre', left + half + 20, top + 16, { width: half });
  doc
    .rect(left, top + 36, half, 70)
    .lineWidth(0.5)
    .strokeColor(LINE)
    .stroke();
  doc.rect(left + half + 20, top + 36, half, 70).stroke();
  doc.y = top + 116;
  doc
    .fontSize(8)
    .fillColor(GREY)
    .text(`Imprimé le ${formatParisDateTime(printedAt)} avec Pecflow. Document à conserver par le patient.`, left, doc.y, { width, align: 'center' });
  doc.end();
  return done;
}
