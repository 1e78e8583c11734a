// A file's kind follows its centre's specialty (src/domain/fileKinds.ts); read here for the server's checks.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { shops } from '../db/schema';
import { fileKindOf, type FileKind } from '../../src/domain/fileKinds';

export async function fileKindOfShop(tx: DbOrTx, shopId: number): Promise<FileKind> {
  const [shop] = await tx.select({ specialite: shops.specialite }).from(shops).where(eq(shops.id, shopId));
  return fileKindOf(shop?.specialite);
}
