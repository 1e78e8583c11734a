// Request bodies: JSON under every content type the Hydra clients send; an empty body is no body. The text is kept
// beside the parsed value: robot callbacks verify their signature over the bytes as received.
import type { FastifyInstance } from 'fastify';
import { badRequest, invalidField } from './errors';
import { formatEuros } from '#domain/format';
import { PRICE_MAX } from '#domain/pec';

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
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return done(badRequest('Le corps de la requête n’est pas un JSON valide.'), undefined);
      }
      // Every JSON body of every route, before any handler reads it (callbacks, payments, resources alike).
      const withNul = fieldWithNul(parsed);
      if (withNul !== undefined) return done(invalidField(withNul, NUL_MESSAGE), undefined);
      done(null, parsed);
    },
  );
}

export const NUL_MESSAGE = 'Caractère invalide (octet nul) dans la valeur.';

/** The path of the first string holding a NUL character (PostgreSQL text cannot store it), or undefined. */
export function fieldWithNul(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object' || depth > 20) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = fieldWithNul(inner, path && !Array.isArray(value) ? `${path}.${key}` : path || key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A sum about to be written to a numeric(12,2) column (a file's paid amount, a quote's total, a statement's total):
 * a French 422 naming the field, before PostgreSQL's overflow error.
 */
export function assertAmountFits(value: number | null | undefined, propertyPath: string, label: string) {
  if (value !== null && value !== undefined && Math.abs(value) > PRICE_MAX) {
    throw invalidField(propertyPath, `Montant trop élevé : ${label} dépasserait ${formatEuros(PRICE_MAX)}.`);
  }
}
