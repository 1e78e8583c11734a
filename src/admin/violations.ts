// The server's French violations of a refused write, by field: for AdminForm, and for a small dialog that says a
// refused field under it without the form system (zod stays out of the list pages).
import { hydraSchemaAnalyzer } from '@api-platform/admin';

/** The violations of a refused save ({propertyPath, message} of a 422 body), by field. */
export function violationsOf(error: unknown): Record<string, string> | undefined {
  // @api-platform/admin's Hydra client leaves the body expanded (JSON-LD): its analyzer reads the violations there.
  const hydra = hydraSchemaAnalyzer().getSubmissionErrors(error as never);
  if (hydra) return hydra;
  const body = (error as { body?: { violations?: { propertyPath?: string; message?: string }[] } })?.body;
  if (!Array.isArray(body?.violations)) return undefined;
  return Object.fromEntries(body.violations.filter((v) => v.propertyPath && v.message).map((v) => [v.propertyPath!, v.message!]));
}
