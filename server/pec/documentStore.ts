// Where the content of PEC files' documents lives (issue 29). One small interface, so that an S3-compatible store
// could replace PostgreSQL (docs/DEPLOYING.md says when); today the content is in pec_document_chunks, in the same
// database as everything else: every instance serves it, backups carry it, a transaction stores it or nothing.
// Each chunk is encrypted on its own (AES-256-GCM, the application key of the robot credentials, a fresh nonce each):
// content goes in and out as a stream of chunks, never whole in memory.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { SecretBox } from '../crypto';
import type { DbOrTx } from '../db/connect';
import { pecDocumentChunks } from '../db/schema';

/** The plain size of a stored chunk. */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;

export interface StoredContent {
  size: number;
  /** SHA-256 of the plain content, hex. */
  sha256: string;
}

export interface DocumentStore {
  /** Stores the content of the document `documentId` (its row written in `tx`), read from `content` chunk by chunk. */
  put(tx: DbOrTx, documentId: number, content: AsyncIterable<Buffer>): Promise<StoredContent>;
  /** The plain content, chunk by chunk. */
  get(db: DbOrTx, documentId: number): AsyncIterable<Buffer>;
  /** Removes the content, in the transaction that removes the document's row. */
  delete(tx: DbOrTx, documentId: number): Promise<void>;
}

/** Cuts a stream of buffers of any size into chunks of `size` bytes (the last one shorter). */
export async function* rechunk(content: AsyncIterable<Buffer>, size = DOCUMENT_CHUNK_BYTES): AsyncIterable<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const piece of content) {
    pending.push(piece);
    length += piece.length;
    while (length >= size) {
      const whole = Buffer.concat(pending, length);
      yield whole.subarray(0, size);
      const rest = whole.subarray(size);
      pending = rest.length ? [rest] : [];
      length = rest.length;
    }
  }
  if (length) yield Buffer.concat(pending, length);
}

export class PostgresDocumentStore implements DocumentStore {
  constructor(private readonly secrets: SecretBox) {}

  async put(tx: DbOrTx, documentId: number, content: AsyncIterable<Buffer>): Promise<StoredContent> {
    const hash = createHash('sha256');
    let size = 0;
    let seq = 0;
    for await (const chunk of rechunk(content)) {
      hash.update(chunk);
      size += chunk.length;
      await tx.insert(pecDocumentChunks).values({ documentId, seq, bytes: this.secrets.encryptBytes(chunk) });
      seq += 1;
    }
    return { size, sha256: hash.digest('hex') };
  }

  async *get(db: DbOrTx, documentId: number): AsyncIterable<Buffer> {
    // One chunk per query: no transaction held while a slow client downloads.
    for (let seq = 0; ; seq += 1) {
      const [row] = await db
        .select({ bytes: pecDocumentChunks.bytes })
        .from(pecDocumentChunks)
        .where(and(eq(pecDocumentChunks.documentId, documentId), eq(pecDocumentChunks.seq, seq)));
      if (!row) return;
      yield this.secrets.decryptBytes(Buffer.from(row.bytes));
    }
  }

  async delete(tx: DbOrTx, documentId: number): Promise<void> {
    await tx.delete(pecDocumentChunks).where(eq(pecDocumentChunks.documentId, documentId));
  }
}
