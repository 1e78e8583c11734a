// What a PEC file holds follows its centre's specialty (issue 15): hearing aids per ear, one optical equipment, or
// nothing device-specific. Shared by the browser and the server.
import type { SPECIALITES } from './schemas';

export const FILE_KINDS = ['audio', 'optical', 'generic'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** A kind in words (the CSV export's "Type de dossier", the dashboard, the list's filter). */
export const FILE_KIND_LABELS: Record<FileKind, string> = { audio: 'Audioprothèse', optical: 'Optique', generic: 'Générique' };

const KIND_BY_SPECIALTY: Record<(typeof SPECIALITES)[number], FileKind> = {
  Audioprothésiste: 'audio',
  Opticien: 'optical',
  // No device model for orthopaedics yet: the file stays generic rather than invent one.
  Orthopédiste: 'generic',
};

/** A centre without a specialty (older data) is a hearing-aid centre, as every file was before. */
export function fileKindOf(specialite: string | null | undefined): FileKind {
  return (specialite && KIND_BY_SPECIALTY[specialite as keyof typeof KIND_BY_SPECIALTY]) || 'audio';
}
