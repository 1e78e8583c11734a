// Request bodies: JSON under every content type the Hydra clients send; an empty body is no body. The text is kept
// beside the parsed value: robot callbacks verify their signature over the bytes as received.
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received. */
    rawBody?: string;
  }
}

export function jsonBodyParsers(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/ld+json', 'application/merge-patch+json', 'application/problem+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      const text = String(body);
      request.rawBody = text;
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch {
        done(badRequest('Le corps de la requête n’est pas un JSON valide.'), undefined);
      }
    },
  );
}
