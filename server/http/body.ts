// Request bodies: JSON under every content type the Hydra clients send; an empty body is no body.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

export function jsonBodyParsers(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/ld+json', 'application/merge-patch+json', 'application/problem+json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = String(body);
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(badRequest('Le corps de la requête n’est pas un JSON valide.'), undefined);
      }
    },
  );
}
