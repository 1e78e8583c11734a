// Which text to show for a failed call (spec section 8, message extraction).
export const GENERIC_ERROR_MESSAGE = 'Une erreur technique est survenue';
/** The screens read every answer through the API's description (GET /api/docs.jsonld): without it, nothing shows. */
export const API_DESCRIPTION_ERROR_MESSAGE = 'La description de l’API n’a pas pu être lue : vérifiez votre connexion, puis réessayez.';

interface ErrorLike {
  message?: unknown;
  body?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The response's `message`, then its `error` (or `detail`), then the error's own message, then the generic text. */
export function extractErrorMessage(error: unknown): string {
  if (typeof error === 'string') return text(error) ?? GENERIC_ERROR_MESSAGE;
  if (!error || typeof error !== 'object') return GENERIC_ERROR_MESSAGE;
  const { body, message } = error as ErrorLike;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const fromBody = text(b.message) ?? text(b.error) ?? text(b.detail) ?? text(b['hydra:description']);
    if (fromBody) return fromBody;
  }
  return text(message) ?? GENERIC_ERROR_MESSAGE;
}
