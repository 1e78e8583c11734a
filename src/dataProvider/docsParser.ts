// @api-platform/admin's documentation parser, from the compact docs the application already reads (GET
// /api/docs.jsonld, as the server writes them: its own prefixes, relative IRIs resolved against the docs' address).
// It gives the same Api, Resource, Field and Operation objects as @api-platform/api-doc-parser's
// parseHydraDocumentation (tests/unit/docs-parser.test.ts compares them for every resource), without its two round
// trips (GET /api, then the docs again) nor the JSON-LD expansion of both. Each collection's filters and orders come
// from its search template in the docs (pecflow:search, the one its answers carry), not from a page read first.
// The parse is in two steps: plain data here (kept by the browser between visits, src/dataProvider/adminSchema.ts),
// then the library's objects, whose references point to each other (src/dataProvider/docsApi.ts, with the Hydra
// provider: the login page needs neither).

type Node = Record<string, unknown>;

const PREFIXES: Record<string, string> = {
  hydra: 'http://www.w3.org/ns/hydra/core#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xmls: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  schema: 'https://schema.org/',
};

/** The field types api-doc-parser gives the ranges and property IRIs the server writes (its getType). */
const TYPES: Record<string, string> = {
  'https://schema.org/email': 'email',
  'https://schema.org/url': 'url',
  [`${PREFIXES.xmls}array`]: 'array',
  [`${PREFIXES.xmls}integer`]: 'integer',
  [`${PREFIXES.xmls}decimal`]: 'decimal',
  [`${PREFIXES.xmls}boolean`]: 'boolean',
  [`${PREFIXES.xmls}date`]: 'date',
  [`${PREFIXES.xmls}dateTime`]: 'dateTime',
};

const list = (value: unknown): Node[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]) as Node[];
const term = (node: Node | undefined, name: string) => node?.[`hydra:${name}`];

/** A field of a resource, as plain data: a reference or an embedded class is named by its class IRI. */
export interface PlainField {
  name: string;
  id: string;
  range: string | null;
  type: string;
  reference: string | null;
  embedded: string | null;
  required: boolean;
  description: string;
  maxCardinality: number | null;
  deprecated: boolean;
  readable: boolean;
  writable: boolean;
}

export interface PlainOperation {
  name: string;
  type: string;
  method: string;
  expects: string | undefined;
  returns: string;
  types: string[];
  deprecated: boolean;
}

export interface PlainResource {
  name: string;
  id: string;
  title: string;
  fields: PlainField[];
  operations: PlainOperation[];
  /** The collection's search template: variable, property, required. */
  search: { variable: string; property: string | null; required: boolean }[];
}

export interface PlainApi {
  title: string;
  resources: PlainResource[];
}

/** The docs as plain data: every collection of the entrypoint with its class's fields and operations. */
export function readCompactDocs(docs: Node): PlainApi {
  const context = (docs['@context'] ?? {}) as Record<string, unknown>;
  // The docs' own address: their vocabulary is it plus '#', and '#Holding' is relative to it.
  const base = String(context['@vocab'] ?? '').replace(/#$/, '');
  const iri = (value: unknown): string => {
    const text = String((value as Node | undefined)?.['@id'] ?? value ?? '');
    const colon = text.indexOf(':');
    if (colon > 0 && PREFIXES[text.slice(0, colon)]) return PREFIXES[text.slice(0, colon)] + text.slice(colon + 1);
    return /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : new URL(text, base).href;
  };
  const classes = list(term(docs, 'supportedClass'));
  const byId = new Map(classes.map((c) => [iri(c), c]));
  const entrypoint = classes.find((c) => iri(c) === `${base}#Entrypoint`);

  const operation = (op: Node, type: string): PlainOperation => {
    const method = String(term(op, 'method'));
    return {
      name: String(op['rdfs:label'] ?? term(op, 'title')),
      type: method === 'POST' ? 'create' : type,
      method,
      expects: term(op, 'expects') === undefined ? undefined : iri(term(op, 'expects')),
      returns: iri(term(op, 'returns')),
      types: list(op['@type']).map((t) => iri(t)),
      deprecated: op['owl:deprecated'] === true,
    };
  };
  const itemType = (method: string) => ({ PUT: 'edit', PATCH: 'edit', DELETE: 'delete' })[method] ?? 'show';

  const resources: PlainResource[] = [];
  for (const collection of list(term(entrypoint, 'supportedProperty'))) {
    const link = term(collection, 'property') as Node | undefined;
    if (!link) continue;
    const name = iri(link).slice(`${base}#Entrypoint/`.length);
    const members = list(link['rdfs:range'])
      .map((range) => range['owl:equivalentClass'] as Node | undefined)
      .find((members) => members && iri(members['owl:onProperty']).endsWith('#member'));
    const cls = members && byId.get(iri(members['owl:allValuesFrom']));
    if (!cls) throw new Error(`La classe de la collection ${name} est absente de la documentation de l’API.`);
    const fields = list(term(cls, 'supportedProperty')).map((supported): PlainField => {
      const property = (term(supported, 'property') ?? {}) as Node;
      const id = iri(property);
      const range = property['rdfs:range'] === undefined ? null : iri(list(property['rdfs:range'])[0]);
      const isLink = iri(property['@type']) === `${PREFIXES.hydra}Link`;
      return {
        name: String(term(supported, 'title') ?? property['rdfs:label']),
        id,
        range,
        type: TYPES[id] ?? (range && TYPES[range]) ?? 'string',
        reference: isLink ? range : null,
        embedded: isLink ? null : range,
        required: term(supported, 'required') === true,
        description: String(term(supported, 'description') ?? ''),
        maxCardinality: (property['owl:maxCardinality'] as number | undefined) ?? null,
        deprecated: supported['owl:deprecated'] === true,
        readable: term(supported, 'readable') === true,
        writable: term(supported, 'writeable') === true || term(supported, 'writable') === true,
      };
    });
    const template = link['pecflow:search'] as { mapping?: { variable: string; property: string | null; required?: boolean }[] } | undefined;
    resources.push({
      name,
      id: iri(cls),
      title: String(term(cls, 'title') ?? ''),
      fields,
      operations: [
        ...list(term(link, 'supportedOperation'))
          .filter((op) => term(op, 'returns') !== undefined)
          .map((op) => operation(op, 'list')),
        ...list(term(cls, 'supportedOperation'))
          .filter((op) => term(op, 'returns') !== undefined)
          .map((op) => operation(op, itemType(String(term(op, 'method'))))),
      ],
      search: (template?.mapping ?? []).map(({ variable, property, required = false }) => ({ variable, property, required })),
    });
  }
  return { title: String(term(docs, 'title') ?? 'API Platform'), resources };
}
