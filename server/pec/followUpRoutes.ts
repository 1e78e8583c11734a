// The colleagues of a file (issue 28): GET /api/pec_dossiers/{id}/colleagues lists the active users who see it, for
// the drawer's 'Suivi par' choice and the notes' @-mentions (office staff cannot read the users' settings list);
// GET /api/pec_colleagues lists the reader's, for the list's 'Suivi par' filter and the bulk 'Assigner à…'.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { requirePermission } from '../auth/principal';
import { pecReadScope } from '../auth/fileVisibility';
import { principalOf } from '../context';
import { pecDossiers } from '../db/schema';
import { notFound, numericParam } from '../http/errors';
import { colleaguesOf, colleaguesOfReader, type Colleague } from './followUps';
import { PEC_PERMISSIONS } from '#domain/permissions';

export async function followUpRoutes(app: FastifyInstance) {
  app.get('/api/pec_dossiers/:id/colleagues', async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const principal = principalOf(request);
    requirePermission(principal, PEC_PERMISSIONS.view);
    const id = numericParam(request, 'id');
    const [file] = await app.ctx.db
      .select({ holdingId: pecDossiers.holdingId, shopId: pecDossiers.shopId })
      .from(pecDossiers)
      .where(and(eq(pecDossiers.id, id), pecReadScope(principal)));
    if (!file) throw notFound();
    return { '@id': `/api/pec_dossiers/${id}/colleagues`, member: (await colleaguesOf(app.ctx.db, file)).map(colleagueItem) };
  });

  app.get('/api/pec_colleagues', async (request: FastifyRequest) => {
    const principal = principalOf(request);
    requirePermission(principal, PEC_PERMISSIONS.view);
    return { '@id': '/api/pec_colleagues', member: (await colleaguesOfReader(app.ctx.db, principal)).map(colleagueItem) };
  });
}

const colleagueItem = (c: Colleague) => ({
  '@id': `/api/users/${c.id}`,
  id: c.id,
  firstName: c.firstName,
  lastName: c.lastName,
  mayFollow: c.mayFollow,
  ...(c.shopIds !== undefined ? { shopIds: c.shopIds } : {}),
});
