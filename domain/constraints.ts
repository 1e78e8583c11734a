// A field's validation rules given as data (a declaration's constraints, served in /api/docs.jsonld as
// pecflow:constraints), and the zod schema they make: the server validates an entity declared without a schema of
// its own with it, and a form can check the same rules from the docs alone.
import { z } from 'zod';
import { booleanField, httpUrl, optionalReference, reference, referenceList, TEXT_MAX, tooLong } from './validation';

/** An enumeration value and its French label. */
export interface Choice {
  id: string;
  name: string;
}

export type ConstraintRule = 'required' | 'type' | 'min' | 'max' | 'pattern' | 'email' | 'url' | 'choice';

export interface FieldConstraints {
  /** Text: at least `min` characters (trimmed); number: at least `min`. */
  min?: number;
  /** Text: at most `max` characters (default 255); number: at most `max`. */
  max?: number;
  /** A regular expression the whole trimmed text must match. */
  pattern?: string;
  /** The French message of a missing, too short or ill-formed value (every rule without a message of its own). */
  message?: string;
  /**
   * A message of its own for one rule, over `message`: `required` (missing or empty), `type` (not a text: a number, a
   * list…), `min`, `max`, `pattern`, `email`, `url`, `choice` (a value that is none of the choices).
   */
  messages?: Partial<Record<ConstraintRule, string>>;
  /** Text kept in lower case (an email address, one however typed). */
  lowercase?: boolean;
  email?: boolean;
  /** An http(s) address. */
  url?: boolean;
  /** Unique among the records of the organisation (or of the platform): the French message of a duplicate (server). */
  unique?: string;
}

export interface ConstrainedField {
  type: 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'dateTime' | 'array' | 'object' | 'reference' | 'references';
  required: boolean;
  choices?: readonly Choice[];
  constraints?: FieldConstraints;
  /** The collection a reference (or each of a list of references) points to. */
  target?: string;
  /** The value a create that omits the field gets. */
  default?: unknown;
}

/** The schema the constraints of a record's fields make: named rules (domain/rules.ts) extend and refine it. */
export type ConstrainedObject = z.ZodObject<Record<string, z.ZodType>>;

export const REQUIRED = 'Ce champ est requis';
export const INVALID_FORMAT = 'Format invalide';

/** "A, B ou C". */
const alternatives = (names: string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} ou ${names.at(-1)}` : (names[0] ?? ''));

/** Empty strings and null mean "no value"; so does a blank text, unless it must be an address (refused as such). */
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : emptyToUndefined(value));

function textSchema(field: ConstrainedField): z.ZodType {
  const c = field.constraints ?? {};
  const m = c.messages ?? {};
  const max = c.max ?? TEXT_MAX;
  const min = c.min ?? (field.required ? 1 : 0);
  const message = c.message ?? (min > 1 ? `Ce champ doit contenir au moins ${min} caractères` : field.required ? REQUIRED : INVALID_FORMAT);
  const required = m.required ?? message;
  const type = m.type ?? required;
  let text: z.ZodType<string, string> = z.string({ error: (issue) => (issue.input === undefined ? required : type) }).trim();
  if (c.lowercase) text = (text as z.ZodString).toLowerCase();
  text = (text as z.ZodString).max(max, m.max ?? tooLong(max));
  if (min > 0) text = (text as z.ZodString).min(min, m.min ?? required);
  if (c.pattern) text = (text as z.ZodString).regex(new RegExp(c.pattern), m.pattern ?? message);
  if (c.email) text = text.pipe(z.email(m.email ?? c.message ?? 'Email invalide'));
  if (c.url) text = text.pipe(httpUrl(m.url ?? c.message ?? 'URL invalide'));
  if (field.choices?.length) {
    const ids = field.choices.map((choice) => choice.id) as [string, ...string[]];
    text = z.enum(ids, { error: m.choice ?? c.message ?? `Valeur invalide : ${alternatives(field.choices.map((choice) => choice.name))}` });
  }
  return text;
}

function numberSchema(field: ConstrainedField): z.ZodType {
  const c = field.constraints ?? {};
  const message = c.message ?? (field.type === 'integer' ? 'Nombre entier attendu' : 'Nombre attendu');
  let n = z.number({ error: message });
  if (field.type === 'integer') n = n.int(message);
  if (c.min !== undefined) n = n.min(c.min, message);
  if (c.max !== undefined) n = n.max(c.max, message);
  return n;
}

/** One field's schema: required, or optional with an empty value stored as null. */
export function fieldSchema(field: ConstrainedField): z.ZodType {
  if (field.type === 'reference') {
    const message = field.constraints?.message ?? (field.required ? REQUIRED : 'Référence invalide');
    return field.required ? reference(field.target!, message) : optionalReference(field.target!, message);
  }
  if (field.type === 'references') return referenceList(field.target!, field.constraints?.message ?? 'Référence invalide');
  const base = field.type === 'boolean' ? booleanField() : field.type === 'integer' || field.type === 'decimal' ? numberSchema(field) : textSchema(field);
  // Only a missing value takes the default: an empty one is refused as the field's type says.
  if (field.default !== undefined) return base.default(field.default as never);
  if (field.required) return base;
  const address = field.constraints?.email || field.constraints?.url;
  return z.preprocess(address ? emptyToUndefined : blankToUndefined, base.optional()).transform((v) => v ?? null);
}

/** The schema of a record from its writable fields' rules (unknown fields are dropped). */
export function schemaFromConstraints(fields: Record<string, ConstrainedField>): ConstrainedObject {
  return z.object(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(field)])));
}
