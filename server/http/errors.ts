// Every error the API answers, as application/problem+json that @api-platform/admin can read (hydra-contract.md).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ZodError } from 'zod';
import { apiDocsUrl } from './links';
import { formatFileSize } from '#domain/format';
import { REQUEST_BODY_LIMIT_MB } from '#domain/systemSettings';

export interface Violation {
  propertyPath: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly detail: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export class ValidationError extends ApiError {
  constructor(public readonly violations: Violation[]) {
    // The messages alone: clients show `detail` to users, who do not read field names.
    super(422, [...new Set(violations.map((v) => v.message))].join('\n'));
  }
}

export const badRequest = (detail: string) => new ApiError(400, detail);
export const unauthorized = (detail: string) => new ApiError(401, detail);
export const forbidden = (detail = 'Accès refusé : vous n’avez pas la permission nécessaire.') => new ApiError(403, detail);
export const notFound = (detail = 'Ressource introuvable.') => new ApiError(404, detail);
/** A record's number in the path (`:id`, `:line`): digits only, else 404 (`/payment_statements/abc` names no record). */
export function numericParam(request: FastifyRequest, name: string, detail?: string): number {
  const raw = (request.params as Record<string, string | undefined>)[name] ?? '';
  if (!/^\d{1,9}$/.test(raw)) throw notFound(detail);
  return Number(raw);
}
export const conflict = (detail: string) => new ApiError(409, detail);
/** One invalid field, reported like a form violation. */
export const invalidField = (propertyPath: string, message: string) => new ValidationError([{ propertyPath, message }]);

const TITLES: Record<number, string> = {
  400: 'Requête invalide',
  401: 'Non authentifié',
  403: 'Accès refusé',
  404: 'Introuvable',
  405: 'Méthode non autorisée',
  409: 'Conflit',
  408: 'Délai dépassé',
  413: 'Requête trop volumineuse',
  414: 'Adresse trop longue',
  415: 'Type de contenu non pris en charge',
  422: 'Données invalides',
  429: 'Trop de requêtes',
  431: 'En-têtes trop volumineux',
  500: 'Erreur interne',
  503: 'Service indisponible',
};

/** One violation per issue; a path into a list stops at the list (the form shows the error on the field). */
export function zodViolations(error: ZodError): Violation[] {
  const violations: Violation[] = [];
  for (const issue of error.issues) {
    const index = issue.path.findIndex((segment) => typeof segment === 'number');
    const path = (index === -1 ? issue.path : issue.path.slice(0, index)).map(String).join('.');
    if (!violations.some((v) => v.propertyPath === path && v.message === issue.message)) violations.push({ propertyPath: path, message: issue.message });
  }
  return violations;
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  const vocab = `${apiDocsUrl(request)}#`;
  const isViolation = error instanceof ValidationError;
  const body: Record<string, unknown> = {
    '@context': { '@vocab': vocab, hydra: 'http://www.w3.org/ns/hydra/core#' },
    '@type': isViolation ? 'ConstraintViolationList' : 'hydra:Error',
    title: TITLES[error.status] ?? 'Erreur',
    status: error.status,
    detail: error.detail,
    'hydra:title': TITLES[error.status] ?? 'Erreur',
    'hydra:description': error.detail,
    // The front end reads `message` first (spec section 8, message extraction).
    message: error.detail,
    ...error.extra,
  };
  if (isViolation) body.violations = error.violations;
  return reply.status(error.status).type('application/problem+json; charset=utf-8').send(body);
}

/** Longest path segment (an id) the router accepts; a longer one answers 414. */
export const MAX_PARAM_LENGTH = 100;
export const BAD_URL_MESSAGE = 'L’adresse de la requête est invalide.';
export const URL_TOO_LONG_MESSAGE = 'L’adresse de la requête est trop longue.';

/**
 * What is wrong with an /api address the router would refuse before any hook runs (Fastify's FST_ERR_BAD_URL and
 * FST_ERR_MAX_PARAM_LENGTH answers skip the hooks, hence the security headers): found first, it is answered by a route.
 */
export function urlProblem(url: string): ApiError | undefined {
  if (!url.startsWith('/api')) return undefined;
  const path = url.split(/[?#]/, 1)[0]!;
  try {
    decodeURI(path);
    if (path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH && decodeURIComponent(segment).length > MAX_PARAM_LENGTH)) {
      return new ApiError(414, URL_TOO_LONG_MESSAGE);
    }
  } catch {
    return badRequest(BAD_URL_MESSAGE);
  }
  return undefined;
}

/** A body beyond the route's limit (the application's, or the route's own bodyLimit): the limit in Mo. */
export const tooLargeMessage = (limitBytes: number) => `La requête est trop volumineuse : ${formatFileSize(limitBytes)} au plus.`;

/** Maps anything thrown by a route or by Fastify itself to a French problem; never leaks a stack trace. */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    // A refusal for a while (429) says until when in its body and, for clients that wait by themselves, in its header.
    if (typeof error.extra.retryAfterSeconds === 'number') reply.header('Retry-After', String(error.extra.retryAfterSeconds));
    return sendProblem(request, reply, error);
  }
  if (error instanceof ZodError) return sendProblem(request, reply, new ValidationError(zodViolations(error)));
  const fe = error as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return sendProblem(request, reply, new ApiError(413, tooLargeMessage(request.routeOptions?.bodyLimit ?? REQUEST_BODY_LIMIT_MB * 1024 * 1024)));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return sendProblem(request, reply, new ApiError(415, 'Type de contenu non pris en charge : envoyez du JSON.'));
    case 'FST_ERR_VALIDATION':
      return sendProblem(request, reply, badRequest('Paramètres de requête invalides.'));
    case 'FST_ERR_BAD_URL':
      return sendProblem(request, reply, badRequest(BAD_URL_MESSAGE));
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return sendProblem(request, reply, new ApiError(414, URL_TOO_LONG_MESSAGE));
  }
  // Database constraints are checked by the resources first; these are the races that slip through.
  // Drizzle wraps the driver's error: its SQLSTATE is on the cause.
  const pgCode = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  if (pgCode === '23505') return sendProblem(request, reply, conflict('Cette valeur est déjà utilisée par un autre élément.'));
  if (pgCode === '23503') return sendProblem(request, reply, conflict('Opération impossible : cet élément est lié à d’autres données.'));
  if (pgCode === '22P02' || pgCode === '22003' || pgCode === '22007' || pgCode === '22008') {
    return sendProblem(request, reply, new ValidationError([{ propertyPath: '', message: 'Valeur invalide.' }]));
  }
  if (error instanceof SyntaxError || fe.statusCode === 400) {
    return sendProblem(request, reply, badRequest('Le corps de la requête n’est pas un JSON valide.'));
  }
  if (fe.statusCode === 429) return sendProblem(request, reply, new ApiError(429, 'Trop de requêtes, réessayez dans un instant.'));
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return sendProblem(request, reply, new ApiError(fe.statusCode, TITLES[fe.statusCode] ?? 'Requête refusée.'));
  }
  request.log.error({ err: error }, 'unhandled error');
  return sendProblem(request, reply, new ApiError(500, 'Une erreur technique est survenue'));
}

/**
 * A request Node's HTTP parser refuses before Fastify sees it (headers or URL too long, malformed request line):
 * answered in French problem+json too, instead of Fastify's English JSON.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (!socket.writable) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const detail =
    status === 431
      ? 'Les en-têtes ou l’adresse de la requête sont trop longs.'
      : status === 408
        ? 'La requête a mis trop de temps à arriver.'
        : 'Requête HTTP invalide.';
  const title = TITLES[status]!;
  const body = JSON.stringify({ '@type': 'hydra:Error', title, status, detail, 'hydra:title': title, 'hydra:description': detail, message: detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
