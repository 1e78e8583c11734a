// The API docs (GET /api/docs.jsonld), read once for the application and parsed once per version of them: the
// generated admin's annotations (ADMIN-CONTRACT.md: each class's `pecflow:admin`, its French names, settings tab,
// permission keys, list and form hints, and each property's `pecflow:label`, `pecflow:choices` and
// `pecflow:constraints`, by collection name) and what @api-platform/admin's introspection reads (types, required
// marks, references, operations, filters: src/dataProvider/docsParser.ts).
// The docs are read in their compact form, as our server writes them (the prefixes hydra: and pecflow: of its own
// @context): expanding them as JSON-LD would cost the page load for the same result.
import { HttpError } from 'ra-core';
import type { Choice, FieldConstraints } from '#domain/constraints';
import type { EntityLabel, FormHints, ListHints, ListSort, SettingsTab } from '#domain/adminHints';
import { extractErrorMessage } from '#domain/errors';
import type { ResourcePermissions } from '#domain/permissions';
import { readCompactDocs, type PlainApi } from './docsParser';

export interface AdminField {
  /** The property's name ('registrationNumber'). */
  name: string;
  label: string;
  choices?: Choice[];
  constraints?: FieldConstraints;
}

export interface AdminEntity {
  /** The collection: /api/{name}, /settings/{name}, <Resource name>. */
  name: string;
  /** 'Holding': the class of the docs. */
  className: string;
  label: EntityLabel;
  settingsTab: (Required<Omit<SettingsTab, 'aliases'>> & { aliases: string[]; permission: string }) | null;
  permissions: ResourcePermissions;
  list:
    | (Required<Omit<ListHints, 'searchPlaceholder' | 'scopeToHolding'>> &
        Pick<ListHints, 'searchPlaceholder'> & { paginated: boolean; scopeToHolding: boolean; sort: ListSort })
    | null;
  form: (Omit<FormHints, 'openIn'> & { openIn: 'edit' | 'view' }) | null;
  fields: Record<string, AdminField>;
}

export interface AdminSchema {
  entities: AdminEntity[];
}

type Node = Record<string, unknown>;

const list = (value: unknown): Node[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) as Node[];
/** A term under its hydra: prefix, or bare (a context mapping the vocabulary). */
const hydra = (node: Node, term: string) => node[`hydra:${term}`] ?? node[term];
const idOf = (value: unknown) => String((value as Node | undefined)?.['@id'] ?? value ?? '');
/** '#Holding', '/api/docs.jsonld#Holding' and a full IRI name the same class. */
const fragment = (iri: string) => iri.slice(iri.lastIndexOf('#') + 1);

/** The admin schema from the docs document (GET /api/docs.jsonld). */
export function parseAdminSchema(docs: Node): AdminSchema {
  const classes = list(hydra(docs, 'supportedClass'));
  const entrypoint = classes.find((c) => fragment(idOf(c)) === 'Entrypoint');
  // Collection name -> class, from the entrypoint's links (range: a collection whose members are of the class).
  const collections = new Map<string, string>();
  for (const supported of list(entrypoint && hydra(entrypoint, 'supportedProperty'))) {
    const property = (hydra(supported, 'property') ?? {}) as Node;
    const name = fragment(idOf(property)).split('/').pop()!;
    for (const range of list(property['rdfs:range'] ?? property.range)) {
      const members = (range['owl:equivalentClass'] ?? range.equivalentClass) as Node | undefined;
      const of = members && idOf(members['owl:allValuesFrom'] ?? members.allValuesFrom);
      if (of) collections.set(fragment(of), name);
    }
  }
  const entities: AdminEntity[] = [];
  for (const cls of classes) {
    const admin = cls['pecflow:admin'] as Omit<AdminEntity, 'name' | 'className' | 'fields'> | undefined;
    const className = fragment(idOf(cls));
    const name = collections.get(className);
    if (!admin || !name) continue;
    const fields: Record<string, AdminField> = {};
    for (const supported of list(hydra(cls, 'supportedProperty'))) {
      const field = String(hydra(supported, 'title') ?? '');
      if (!field) continue;
      fields[field] = {
        name: field,
        label: String(supported['pecflow:label'] ?? field),
        choices: supported['pecflow:choices'] as Choice[] | undefined,
        constraints: supported['pecflow:constraints'] as FieldConstraints | undefined,
      };
    }
    entities.push({ ...admin, name, className, fields });
  }
  return { entities };
}

/** The docs as the application uses them: the admin's annotations and the introspection's plain data. */
export interface ApiDocs {
  /** The docs' ETag: the version they were parsed from. */
  etag: string | null;
  admin: AdminSchema;
  api: PlainApi;
}

/**
 * Where the browser keeps the docs' parse between visits, with the ETag it was made from (public/boot.js reads that one
 * to ask for the docs only if they changed). A parse is used only by the code that made it: `parser` is this module's
 * address, which carries the build's hash.
 */
export const KEPT_DOCS_KEY = 'pecflow.apiDocs';
export const KEPT_DOCS_TAG_KEY = 'pecflow.apiDocs.etag';
const parser = import.meta.url;

function keptDocs(): ApiDocs | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_DOCS_KEY) ?? 'null') as (ApiDocs & { parser: string }) | null;
    return kept?.parser === parser && kept.etag ? { etag: kept.etag, admin: kept.admin, api: kept.api } : undefined;
  } catch {
    return undefined;
  }
}

function keep(docs: ApiDocs) {
  try {
    localStorage.setItem(KEPT_DOCS_KEY, JSON.stringify({ ...docs, parser }));
    localStorage.setItem(KEPT_DOCS_TAG_KEY, docs.etag!);
  } catch {
    // A full storage only means parsing them again next time.
  }
}

/** The docs, or a 304 when `etag` is still theirs (a request carrying If-None-Match bypasses the HTTP cache). */
const fetchDocs = (etag?: string) => fetch('/api/docs.jsonld', { headers: { Accept: 'application/ld+json', ...(etag ? { 'If-None-Match': etag } : {}) } });

/** The read public/boot.js started with the page for a signed-in visitor (the same request), taken once. */
function earlyRead(): Promise<Response> | undefined {
  const page = window as { pecflowDocs?: Promise<Response> };
  const early = page.pecflowDocs;
  delete page.pecflowDocs;
  return early;
}

async function loadDocs(): Promise<ApiDocs> {
  const kept = keptDocs();
  let response = await (earlyRead() ?? fetchDocs(kept?.etag ?? undefined));
  if (response.status === 304) {
    if (kept) return kept;
    response = await fetchDocs();
  }
  const body = (await response.json().catch(() => undefined)) as Node | undefined;
  if (!response.ok || !body) throw new HttpError(extractErrorMessage({ body, message: response.statusText }), response.status, body);
  const etag = response.headers.get('ETag');
  if (kept && etag === kept.etag) return kept;
  const docs = { etag, admin: parseAdminSchema(body), api: readCompactDocs(body) };
  if (etag) keep(docs);
  return docs;
}

let apiDocs: Promise<ApiDocs> | undefined;

/**
 * GET /api/docs.jsonld, once for the application (the admin schema, the auth provider's access checks and the Hydra
 * provider's introspection share it: the same public document). A failed read is tried again by the next call.
 */
export function readApiDocs(): Promise<ApiDocs> {
  apiDocs ??= loadDocs().catch((error: unknown) => {
    apiDocs = undefined;
    throw error;
  });
  return apiDocs;
}

/** The admin's annotations of the docs, by collection. */
export const readAdminSchema = (): Promise<AdminSchema> => readApiDocs().then((docs) => docs.admin);
