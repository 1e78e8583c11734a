// A file's kind follows its centre's specialty (domain/fileKinds.ts): read for the server's checks, and as a
// condition for the PEC list's `fileKind` filter and the dashboard's figures per kind.
import { eq, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../db/connect';
import { pecDossiers, shops } from '../db/schema';
import { FILE_KINDS, fileKindOf, type FileKind } from '#domain/fileKinds';
import { SPECIALITES } from '#domain/schemas';

export async function fileKindOfShop(tx: DbOrTx, shopId: number): Promise<FileKind> {
  const [shop] = await tx.select({ specialite: shops.specialite }).from(shops).where(eq(shops.id, shopId));
  return fileKindOf(shop?.specialite);
}

/** Specialties of a kind; a hearing-aid file is also one of a centre without a known specialty (fileKindOf). */
const specialtiesOf = (kind: FileKind) => SPECIALITES.filter((s) => fileKindOf(s) === kind);

/** Files of one kind, by their centre's specialty: the list filter `fileKind` and the dashboard's figures share it. */
export function fileKindCondition(kind: FileKind): SQL {
  if (kind === 'audio') {
    const others = SPECIALITES.filter((s) => fileKindOf(s) !== 'audio');
    return sql`${pecDossiers.shopId} in (select ${shops.id} from ${shops} where ${or(isNull(shops.specialite), notInArray(shops.specialite, others))})`;
  }
  return sql`${pecDossiers.shopId} in (select ${shops.id} from ${shops} where ${inArray(shops.specialite, specialtiesOf(kind))})`;
}

/** The list filter: audio, optical or generic; anything else matches no file. */
export const fileKindFilter = (value: string) => ((FILE_KINDS as readonly string[]).includes(value) ? fileKindCondition(value as FileKind) : sql`false`);

/** Files per kind from files per centre (the dashboard's figures): every kind present, zero when none. */
export async function countByKind(tx: DbOrTx, perShop: { shopId: number; n: number }[]): Promise<Record<FileKind, number>> {
  const counts = Object.fromEntries(FILE_KINDS.map((k) => [k, 0])) as Record<FileKind, number>;
  if (perShop.length === 0) return counts;
  const rows = await tx
    .select({ id: shops.id, specialite: shops.specialite })
    .from(shops)
    .where(
      inArray(
        shops.id,
        perShop.map((r) => r.shopId),
      ),
    );
  const kindOf = new Map(rows.map((r) => [r.id, fileKindOf(r.specialite)]));
  for (const { shopId, n } of perShop) counts[kindOf.get(shopId) ?? 'audio'] += Number(n);
  return counts;
}
