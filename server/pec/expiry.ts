// The daily expiry scan: files whose agreement (datePeremption) ends within the warning window (expiryWarningWindow,
// domain/pec.ts: today and the 14 days after it) and that are not billed get one notification per expiry date, for the
// users who act on them (server/notifications/service.ts).
import { and, asc, eq, gte, isNull, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { pecDossiers } from '../db/schema';
import { notifyFile } from '../notifications/service';
import { formatDate } from '#domain/format';
import { expiryWarningWindow, todayInFrance } from '#domain/pec';
import { archivedFilter } from './archive';

/**
 * Files expiring within the warning window, unbilled and not archived (an archived file will not be billed): the
 * dashboard's count and the notifications use this.
 */
export function expiringCondition(today: string) {
  const window = expiryWarningWindow(today);
  return and(
    archivedFilter('false'),
    eq(pecDossiers.statutFacturation, false),
    notInArray(pecDossiers.status, ['billed', 'paid']),
    gte(pecDossiers.datePeremption, window.first),
    lte(pecDossiers.datePeremption, window.last),
  );
}

/** Returns the number of files notified. */
export async function scanExpiring(app: AppContext, now = new Date()): Promise<number> {
  const today = todayInFrance(now);
  let notified = 0;
  for (;;) {
    const batch = await app.db
      .select({
        id: pecDossiers.id,
        holdingId: pecDossiers.holdingId,
        shopId: pecDossiers.shopId,
        createdById: pecDossiers.createdById,
        numeroDossier: pecDossiers.numeroDossier,
        datePeremption: pecDossiers.datePeremption,
      })
      .from(pecDossiers)
      .where(and(expiringCondition(today), or(isNull(pecDossiers.expiryNotifiedFor), ne(pecDossiers.expiryNotifiedFor, sql`${pecDossiers.datePeremption}`))))
      .orderBy(asc(pecDossiers.id))
      .limit(100);
    if (batch.length === 0) return notified;
    for (const file of batch) {
      await app.db.transaction(async (tx) => {
        await notifyFile(tx, file, {
          kind: 'expiry',
          title: `PEC bientôt périmée — ${file.numeroDossier}`,
          description: `L’accord de prise en charge expire le ${formatDate(file.datePeremption)} : facturez avant cette date.`,
        });
        await tx.update(pecDossiers).set({ expiryNotifiedFor: file.datePeremption }).where(eq(pecDossiers.id, file.id));
      });
      notified++;
    }
  }
}
