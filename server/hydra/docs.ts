// The API entrypoint (/api) and its Hydra documentation (/api/docs.jsonld), generated from the declarations,
// in the shape @api-platform/api-doc-parser reads (hydra-contract.md).
import type { FastifyRequest } from 'fastify';
import type { ListSort } from '#domain/adminHints';
import { API_PREFIX } from '#domain/iri';
import { apiDocsUrl } from '../http/links';
import { searchTemplate } from './output';
import type { Field, FieldType, ResourceDeclaration } from './types';

const XMLS: Record<FieldType, string | undefined> = {
  string: 'xmls:string',
  integer: 'xmls:integer',
  decimal: 'xmls:decimal',
  boolean: 'xmls:boolean',
  date: 'xmls:date',
  dateTime: 'xmls:dateTime',
  array: 'xmls:array',
  object: undefined,
};

const SCHEMA_ORG = {
  name: 'https://schema.org/name',
  email: 'https://schema.org/email',
  url: 'https://schema.org/url',
  identifier: 'https://schema.org/identifier',
};

const id = (value: string) => ({ '@id': value });

const PECFLOW_NS = 'https://pecflow.fr/ns#';

function rangeOf(field: Field, targets: Map<string, ResourceDeclaration>): string | undefined {
  if (field.kind === 'reference' || field.kind === 'references') return `#${targets.get(field.target)?.className ?? field.target}`;
  if (field.kind === 'column' || field.kind === 'computed' || field.kind === 'derived' || field.kind === 'writeOnly') return XMLS[field.type];
  return undefined;
}

/** The IRI the docs declare for a property (relative to the docs, or a schema.org term); response contexts map it the same. */
export function propertyIri(decl: ResourceDeclaration, name: string, field: Field): string {
  return field.iri ? SCHEMA_ORG[field.iri] : `#${decl.className}/${name}`;
}

function supportedProperty(decl: ResourceDeclaration, name: string, field: Field, targets: Map<string, ResourceDeclaration>) {
  const isLink = field.kind === 'reference' || field.kind === 'references';
  const property: Record<string, unknown> = {
    '@id': propertyIri(decl, name, field),
    '@type': isLink ? 'hydra:Link' : 'rdf:Property',
    'rdfs:label': name,
    domain: id(`#${decl.className}`),
  };
  const range = rangeOf(field, targets);
  if (range) property['rdfs:range'] = id(range);
  if (field.kind === 'reference') property['owl:maxCardinality'] = 1;
  const supported: Record<string, unknown> = {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': property,
    'hydra:title': name,
    'hydra:required': field.required,
    'hydra:readable': field.readable,
    'hydra:writeable': field.writable,
  };
  if (field.description) supported['hydra:description'] = field.description;
  // What the generated screens need besides the Hydra terms (ADMIN-CONTRACT.md): the French label, the choices, the rules.
  if (field.label) supported['pecflow:label'] = field.label;
  if (field.choices) supported['pecflow:choices'] = field.choices;
  if (field.constraints) supported['pecflow:constraints'] = field.constraints;
  return supported;
}

function operation(method: string, title: string, label: string, type: string, options: { expects?: string; returns: string }) {
  const op: Record<string, unknown> = {
    '@type': ['hydra:Operation', type],
    'hydra:method': method,
    'hydra:title': title,
    'rdfs:label': label,
    'hydra:returns': id(options.returns),
  };
  if (options.expects) op['hydra:expects'] = id(options.expects);
  return op;
}

function itemOperations(decl: ResourceDeclaration) {
  const cls = `#${decl.className}`;
  const ops = [operation('GET', `get${decl.className}`, `${decl.label.singular} : consulter`, 'schema:FindAction', { returns: cls })];
  if (!decl.readOnly) {
    // PATCH first: the admin edits with the first "edit" operation it finds, and merge-patch keeps untouched fields.
    if (decl.updatable !== false) {
      ops.push(operation('PATCH', `patch${decl.className}`, `${decl.label.singular} : modifier`, 'schema:UpdateAction', { expects: cls, returns: cls }));
      ops.push(operation('PUT', `put${decl.className}`, `${decl.label.singular} : remplacer`, 'schema:ReplaceAction', { expects: cls, returns: cls }));
    }
    if (decl.deletion.mode !== 'none')
      ops.push(operation('DELETE', `delete${decl.className}`, `${decl.label.singular} : supprimer`, 'schema:DeleteAction', { returns: 'owl:Nothing' }));
  }
  return ops;
}

function collectionProperty(decl: ResourceDeclaration) {
  const cls = `#${decl.className}`;
  const label = `La collection des ressources ${decl.className}`;
  const ops = [operation('GET', `getCollection${decl.className}`, `${decl.label.singular} : lister`, 'schema:FindAction', { returns: 'hydra:Collection' })];
  if (!decl.readOnly && (decl.creatable !== false || decl.upload)) {
    ops.push(operation('POST', `post${decl.className}`, `${decl.label.singular} : créer`, 'schema:CreateAction', { expects: cls, returns: cls }));
  }
  return {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': {
      '@id': `#Entrypoint/${decl.name}`,
      '@type': 'hydra:Link',
      'rdfs:label': label,
      domain: id('#Entrypoint'),
      'rdfs:range': [id('hydra:Collection'), { 'owl:equivalentClass': { 'owl:onProperty': id('hydra:member'), 'owl:allValuesFrom': id(cls) } }],
      'hydra:supportedOperation': ops,
      // The collection's search template, as its answers carry it (hydra:search): the admin reads its filters and
      // sortable fields here instead of asking for a page of the collection first.
      'pecflow:search': searchTemplate(decl),
    },
    'hydra:title': label,
    'hydra:readable': true,
    'hydra:writeable': false,
  };
}

/** The declaration's default order as react-admin writes a sort. */
const listSort = ({ defaultOrder: [field, direction] }: ResourceDeclaration): ListSort => ({ field, order: direction === 'desc' ? 'DESC' : 'ASC' });

/** The entity as the generated admin shows it: names, settings tab, permission keys, list and form hints. */
function adminHints(decl: ResourceDeclaration) {
  const tab = decl.settingsTab;
  return {
    label: decl.label,
    settingsTab: tab ? { position: tab.position, label: tab.label ?? decl.label.plural, aliases: tab.aliases ?? [], permission: decl.permissions.view } : null,
    permissions: decl.permissions,
    // The order the server gives when none is asked: the list shows its arrow from the first load.
    list: decl.list ? { paginated: decl.paginated !== false, scopeToHolding: false, filters: [], ...decl.list, sort: listSort(decl) } : null,
    form: decl.form ? { openIn: 'edit', ...decl.form } : null,
  };
}

export function apiDocumentation(request: FastifyRequest, declarations: ResourceDeclaration[]) {
  const targets = new Map(declarations.map((d) => [d.name, d]));
  const classes = declarations.map((decl) => ({
    '@id': `#${decl.className}`,
    '@type': 'hydra:Class',
    'rdfs:label': decl.className,
    'hydra:title': decl.className,
    'hydra:description': decl.label.singular,
    'pecflow:admin': adminHints(decl),
    'hydra:supportedProperty': Object.entries(decl.fields).map(([name, field]) => supportedProperty(decl, name, field, targets)),
    'hydra:supportedOperation': itemOperations(decl),
  }));
  return {
    '@context': {
      '@vocab': `${apiDocsUrl(request)}#`,
      hydra: 'http://www.w3.org/ns/hydra/core#',
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xmls: 'http://www.w3.org/2001/XMLSchema#',
      owl: 'http://www.w3.org/2002/07/owl#',
      schema: 'https://schema.org/',
      domain: { '@id': 'rdfs:domain', '@type': '@id' },
      // Pecflow's own annotations, kept as JSON literals by jsonld.expand (the api-doc-parser ignores them).
      pecflow: PECFLOW_NS,
      'pecflow:admin': { '@type': '@json' },
      'pecflow:choices': { '@type': '@json' },
      'pecflow:constraints': { '@type': '@json' },
      'pecflow:search': { '@type': '@json' },
    },
    '@id': `${API_PREFIX}/docs.jsonld`,
    'hydra:title': 'API Pecflow',
    'hydra:description': 'Demandes de prise en charge, robot DPEC et back-office des centres.',
    'hydra:entrypoint': API_PREFIX,
    'hydra:supportedClass': [
      ...classes,
      {
        '@id': '#Entrypoint',
        '@type': 'hydra:Class',
        'hydra:title': 'Entrypoint',
        'hydra:supportedProperty': declarations.map(collectionProperty),
        'hydra:supportedOperation': [operation('GET', 'getEntrypoint', 'Point d’entrée de l’API', 'schema:FindAction', { returns: '#Entrypoint' })],
      },
    ],
  };
}

export function entrypoint(request: FastifyRequest, declarations: ResourceDeclaration[]) {
  const context: Record<string, unknown> = { '@vocab': `${apiDocsUrl(request)}#`, hydra: 'http://www.w3.org/ns/hydra/core#' };
  const document: Record<string, unknown> = { '@context': context, '@id': API_PREFIX, '@type': 'Entrypoint' };
  for (const decl of declarations) {
    context[decl.name] = { '@id': `Entrypoint/${decl.name}`, '@type': '@id' };
    document[decl.name] = `${API_PREFIX}/${decl.name}`;
  }
  return document;
}
