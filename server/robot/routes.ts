// The robot's HTTP side: starting runs from the PEC screens, and the callbacks the robot (or a person, through the
// manual result forms) posts back.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/plugin';
import { principalOf } from '../context';
import { notFound, unauthorized } from '../http/errors';
import { CALLBACK_MESSAGES, CALLBACK_TYPES, type CallbackType } from '#domain/pec';
import { ROBOT_SIGNATURE_HEADER, verifySignature } from '../http/signature';
import type { CallbackResult } from './callbacks';
import { robotDocumentRoutes } from './documents';
import type { CallbackSaved } from '#domain/pecAnswers';

/** The spec's answer: the execution and the processing time in seconds (a repeated delivery gets the first's id). */
const answer = ({ executionId, processing_time }: CallbackResult): CallbackSaved => ({ executionId, processing_time });

export async function robotRoutes(app: FastifyInstance) {
  const { runs } = app.ctx.pec;

  // Starting a run changes the file's status: its starter sees it in their totals at once (ResourceRepository.noteWrite).
  const files = app.ctx.resources.get('pec_dossiers');
  const start = async (request: FastifyRequest, kind: 'dpec' | 'billing') => {
    const principal = principalOf(request);
    const started = await runs.start(principal, request.body, kind);
    files.noteWrite(principal);
    return started;
  };
  app.post('/api/robot-frontend/setup-and-create-dpec', async (request) => start(request, 'dpec'));
  app.post('/api/robot-frontend/setup-and-billing-pec', async (request) => start(request, 'billing'));

  // The documents a run carries out (signed links) and brings back (POST /api/callbacks/documents): robot/documents.ts.
  await robotDocumentRoutes(app);

  // Public at the auth hook's level: the robot signs instead; a person without a signature must be signed in.
  app.post('/api/callbacks/:type', { config: { public: true } }, async (request: FastifyRequest) => {
    const type = (request.params as { type: string }).type as CallbackType;
    if (!CALLBACK_TYPES.includes(type)) throw notFound('Type de rappel inconnu : scraping, dpec ou billing.');
    // What the robot signed: the body as received (kept by the JSON parser, http/body.ts).
    const raw = request.rawBody ?? '';
    const signature = request.headers[ROBOT_SIGNATURE_HEADER];
    if (signature !== undefined) {
      if (!verifySignature(raw, app.ctx.config.robotCallbackSecret, Array.isArray(signature) ? signature[0] : signature)) {
        throw unauthorized(CALLBACK_MESSAGES.badSignature);
      }
      return answer(await runs.receive(type, request.body, { robot: true }));
    }
    const principal = await authenticate(request);
    if (!principal) throw unauthorized('Authentification requise : jeton absent ou invalide.');
    return answer(await runs.receive(type, request.body, { robot: false, principal }));
  });
}
