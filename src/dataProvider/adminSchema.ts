// The generated admin's reading of the API docs (ADMIN-CONTRACT.md): each class's `pecflow:admin` (French names,
// settings tab, permission keys, list and form hints) and each property's `pecflow:label`, `pecflow:choices` and
// `pecflow:constraints`, by collection name. Read once from /api/docs.jsonld, next to @api-platform/admin's own
// introspection (types, required marks, references), which ignores these terms.
// The docs are read in their compact form, as our server writes them (the prefixes hydra: and pecflow: of its own
// @context): expanding them would need a second copy of the jsonld library in the browser for the same result.
import type { Choice, FieldConstraints } from '#domain/constraints';
import type { EntityLabel, FormHints, ListHints, SettingsTab } from '#domain/adminHints';
import type { ResourcePermissions } from '#domain/permissions';
import { apiFetch } from './http';

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
        Pick<ListHints, 'searchPlaceholder'> & { paginated: boolean; scopeToHolding: boolean })
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

let adminSchema: Promise<AdminSchema> | undefined;

/**
 * GET /api/docs.jsonld, read as above, once for the application (the data provider's `adminSchema` method and the
 * auth provider's access checks share it: the same public document). A failed read is tried again by the next call.
 */
export function readAdminSchema(): Promise<AdminSchema> {
  adminSchema ??= apiFetch<Node>('/api/docs.jsonld')
    .then(parseAdminSchema)
    .catch((error: unknown) => {
      adminSchema = undefined;
      throw error;
    });
  return adminSchema;
}
