// Adding a document to a PEC file (issue 29): an upload is first spooled to a temporary file, encrypted, while its
// bytes are checked (type by its first bytes, size, a PDF's end and encryption), so that no transaction waits on a
// slow client and a refused file leaves nothing; then one transaction writes its row and its chunks.
// `storeDocument` is the one way in, for uploads and for documents the server makes (the printed summary).
import { randomUUID } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { recordAudit, type AuditActor } from '../audit/audit';
import type { SecretBox } from '../crypto';
import type { DbOrTx } from '../db/connect';
import { pecDocuments } from '../db/schema';
import { ValidationError } from '../http/errors';
import type { SettingsService } from '../settings';
import type { DocumentStore } from './documentStore';
import {
  DOCUMENT_MAX_PER_FILE,
  DOCUMENT_MAX_PER_FILE_KEY,
  DOCUMENT_MAX_SIZE_MB,
  DOCUMENT_MAX_SIZE_MB_KEY,
  DOCUMENT_MESSAGES,
  DOCUMENT_MIME_TYPES,
  type DocumentKind,
  type DocumentMimeType,
  type DocumentSource,
} from '#domain/documents';

export interface NewDocument {
  holdingId: number;
  dossierId: number;
  kind: DocumentKind;
  /** The name shown and given to downloads. */
  name: string;
  mime: DocumentMimeType;
  content: AsyncIterable<Buffer> | Buffer;
  /** Who added it (recorded, and the author of its audit entry); null for the server itself and the robot. */
  createdBy: AuditActor | null;
  /** 'robot' for a document the robot posted back ('user' when absent). */
  source?: DocumentSource;
  /** The content's SHA-256 when known before it is stored (the robot's documents, unique per file by it). */
  sha256?: string;
  store: DocumentStore;
}

/** The limits of documents (system settings): the largest, in bytes, and the most per file. */
export async function documentLimits(settings: SettingsService): Promise<{ maxBytes: number; maxPerFile: number }> {
  return {
    maxBytes: (await settings.number(DOCUMENT_MAX_SIZE_MB_KEY, DOCUMENT_MAX_SIZE_MB)) * 1024 * 1024,
    maxPerFile: await settings.number(DOCUMENT_MAX_PER_FILE_KEY, DOCUMENT_MAX_PER_FILE),
  };
}

/**
 * The type of a content seen by `inspection`, or why it is refused (French, for the `file` field): empty, over the
 * limit (`truncated`: the upload was cut at it), not a PDF, JPEG or PNG by its bytes, a damaged or encrypted PDF.
 * The same rules for every way in (uploads, the robot's documents).
 */
export async function contentCheck(
  inspection: UploadInspection,
  maxBytes: number,
  truncated = false,
): Promise<{ mime: DocumentMimeType } | { problem: string }> {
  if (truncated || inspection.size > maxBytes) return { problem: DOCUMENT_MESSAGES.tooLarge(maxBytes / 1024 / 1024) };
  if (inspection.size === 0) return { problem: DOCUMENT_MESSAGES.fileEmpty };
  const mime = await inspection.type();
  if (!mime) return { problem: DOCUMENT_MESSAGES.wrongType };
  const problem = mime === 'application/pdf' ? inspection.pdfProblem() : undefined;
  return problem ? { problem } : { mime };
}

/** Refuses a document beyond the most per file (422); call it with the file's row locked (two at once are not both the last). */
export async function assertRoomForDocument(tx: DbOrTx, dossierId: number, maxPerFile: number): Promise<void> {
  const [held] = await tx.select({ n: count() }).from(pecDocuments).where(eq(pecDocuments.dossierId, dossierId));
  if (Number(held?.n ?? 0) >= maxPerFile) throw new ValidationError([{ propertyPath: 'file', message: DOCUMENT_MESSAGES.tooMany(maxPerFile) }]);
}

async function* once(buffer: Buffer): AsyncIterable<Buffer> {
  yield buffer;
}

/**
 * Writes the document's row, its content and its audit entry in one transaction (a savepoint when `db` is one
 * already): all of it or nothing. Returns its id. The limits of uploads are the caller's (the upload route).
 */
export async function storeDocument(db: DbOrTx, document: NewDocument): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pecDocuments)
      .values({
        holdingId: document.holdingId,
        dossierId: document.dossierId,
        kind: document.kind,
        originalName: document.name,
        size: 0,
        mimeType: document.mime,
        sha256: document.sha256 ?? '',
        createdById: document.createdBy?.id ?? null,
        source: document.source ?? 'user',
      })
      .returning({ id: pecDocuments.id });
    const id = row!.id;
    const content = Buffer.isBuffer(document.content) ? once(document.content) : document.content;
    const stored = await document.store.put(tx, id, content);
    await tx.update(pecDocuments).set(stored).where(eq(pecDocuments.id, id));
    await recordAudit(tx, document.createdBy, {
      action: 'pec_document.create',
      entity: 'pec_documents',
      entityId: id,
      entityLabel: document.name,
      holdingId: document.holdingId,
      changes: {
        dossier: { after: document.dossierId },
        kind: { after: document.kind },
        originalName: { after: document.name },
        size: { after: stored.size },
        ...(document.source === 'robot' ? { source: 'robot' } : {}),
      },
    });
    return id;
  });
}

/** A temporary file of encrypted pieces (the application key, a fresh nonce each): an upload before it is accepted. */
export class EncryptedSpool {
  private readonly lengths: number[] = [];

  private constructor(
    private readonly file: FileHandle,
    private readonly filePath: string,
    private readonly secrets: SecretBox,
  ) {}

  static async create(secrets: SecretBox): Promise<EncryptedSpool> {
    const filePath = path.join(tmpdir(), `pecflow-upload-${randomUUID()}`);
    return new EncryptedSpool(await open(filePath, 'wx+', 0o600), filePath, secrets);
  }

  async append(piece: Buffer): Promise<void> {
    const sealed = this.secrets.encryptBytes(piece);
    await this.file.write(sealed);
    this.lengths.push(sealed.length);
  }

  /** The plain pieces again, in order, one at a time. */
  async *read(): AsyncIterable<Buffer> {
    let position = 0;
    for (const length of this.lengths) {
      const sealed = Buffer.alloc(length);
      await this.file.read(sealed, 0, length, position);
      position += length;
      yield this.secrets.decryptBytes(sealed);
    }
  }

  async remove(): Promise<void> {
    await this.file.close().catch(() => undefined);
    await rm(this.filePath, { force: true });
  }
}

/** What the bytes of an upload say, seen as they pass: no more than a few kilobytes kept. */
export class UploadInspection {
  size = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private encryptMarkSeen = false;

  private static readonly HEAD = 4100;
  private static readonly TAIL = 2048;
  private static readonly ENCRYPT = Buffer.from('/Encrypt');

  see(piece: Buffer): void {
    this.size += piece.length;
    if (this.head.length < UploadInspection.HEAD) this.head = Buffer.concat([this.head, piece.subarray(0, UploadInspection.HEAD - this.head.length)]);
    // The end of what came before joins this piece: '/Encrypt' cut between two pieces is found too.
    const window = Buffer.concat([this.tail.subarray(-UploadInspection.ENCRYPT.length), piece]);
    if (!this.encryptMarkSeen && window.includes(UploadInspection.ENCRYPT)) this.encryptMarkSeen = true;
    this.tail = Buffer.concat([this.tail, piece]).subarray(-UploadInspection.TAIL);
  }

  /** The type its first bytes say, if accepted; undefined for any other (whatever its name says). */
  async type(): Promise<DocumentMimeType | undefined> {
    const found = await fileTypeFromBuffer(this.head);
    return DOCUMENT_MIME_TYPES.find((mime) => mime === found?.mime);
  }

  /**
   * What is wrong with a PDF, if anything: a file cut short or damaged has no cross-reference table and end marker
   * where a reader looks for them (its last bytes); an encrypted one names its encryption dictionary (/Encrypt).
   */
  pdfProblem(): string | undefined {
    const end = this.tail.toString('latin1');
    if (!this.head.subarray(0, 5).equals(Buffer.from('%PDF-')) || !end.includes('%%EOF') || !/startxref\s+\d+/.test(end)) return DOCUMENT_MESSAGES.corruptPdf;
    if (this.encryptMarkSeen) return DOCUMENT_MESSAGES.encryptedPdf;
    return undefined;
  }
}
