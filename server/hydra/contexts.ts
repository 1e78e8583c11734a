// The @context of items and collections, served by URL as API Platform serves it (/api/contexts/{Class}): responses
// carry only that URL, so a list costs nothing more, and the context can map everything a body uses without weighing
// on every page. It maps Hydra's keys to Hydra's vocabulary and each property to the IRI the docs declare for it;
// the classes an item embeds (a company's holding) get theirs through a type-scoped context (JSON-LD 1.1).
import type { FastifyInstance } from 'fastify';
import { notFound } from '../http/errors';
import { apiDocsUrl } from '../http/links';
import { propertyIri } from './docs';
import { JSON_LD } from './output';
import type { ResourceDeclaration } from './types';

/** Hydra's own definitions (as in http://www.w3.org/ns/hydra/context.jsonld) of the keys our collections use. */
const HYDRA_TERMS: Record<string, string | Record<string, string>> = {
  hydra: 'http://www.w3.org/ns/hydra/core#',
  member: { '@id': 'hydra:member', '@type': '@id' },
  totalItems: 'hydra:totalItems',
  view: { '@id': 'hydra:view', '@type': '@id' },
  first: { '@id': 'hydra:first', '@type': '@id' },
  last: { '@id': 'hydra:last', '@type': '@id' },
  next: { '@id': 'hydra:next', '@type': '@id' },
  previous: { '@id': 'hydra:previous', '@type': '@id' },
  search: { '@id': 'hydra:search', '@type': '@id' },
  template: { '@id': 'hydra:template', '@type': 'hydra:Rfc6570Template' },
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  BasicRepresentation: 'hydra:BasicRepresentation',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  mapping: 'hydra:mapping',
  variable: 'hydra:variable',
  // A mapping's property names one of the class's properties: read as a term, it expands to that property's IRI.
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  required: 'hydra:required',
};

/** Contexts kept per docs URL and class; the docs URL comes from the request, so a flood of Host headers only resets it. */
const MAX_CACHED = 200;

/** Each property of a class -> the IRI the docs declare; references are IRIs, JSON objects stay JSON values. */
function propertyTerms(docsUrl: string, decl: ResourceDeclaration) {
  const terms: Record<string, string | Record<string, string>> = {};
  for (const [name, field] of Object.entries(decl.fields)) {
    const iri = new URL(propertyIri(decl, name, field), docsUrl).href;
    if (field.kind === 'reference' || field.kind === 'references') terms[name] = { '@id': iri, '@type': '@id' };
    else if (field.type === 'object') terms[name] = { '@id': iri, '@type': '@json' };
    else terms[name] = iri;
  }
  return terms;
}

function classContext(docsUrl: string, decl: ResourceDeclaration, byName: Map<string, ResourceDeclaration>) {
  const context: Record<string, unknown> = { '@version': 1.1, '@vocab': `${docsUrl}#`, ...HYDRA_TERMS, ...propertyTerms(docsUrl, decl) };
  for (const field of Object.values(decl.fields)) {
    if (field.kind !== 'reference' && field.kind !== 'references') continue;
    const target = byName.get(field.target);
    if (target && target !== decl) context[target.className] = { '@id': `${docsUrl}#${target.className}`, '@context': propertyTerms(docsUrl, target) };
  }
  return { '@context': context };
}

/** A property named like a Hydra key (`member`, `view`...) would change what collections mean: refused at start-up. */
function assertNoHydraKey(declarations: ResourceDeclaration[]) {
  for (const decl of declarations) {
    for (const name of Object.keys(decl.fields)) {
      if (Object.hasOwn(HYDRA_TERMS, name)) throw new Error(`${decl.name}.${name}: a property cannot be named like a Hydra key of the response contexts`);
    }
  }
}

export async function contextRoutes(app: FastifyInstance, declarations: ResourceDeclaration[]) {
  assertNoHydraKey(declarations);
  const byClass = new Map(declarations.map((d) => [d.className, d]));
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const cache = new Map<string, string>();

  // Public like the docs: a context describes no data, and JSON-LD processors fetch it without credentials.
  app.get('/api/contexts/:className', { config: { public: true } }, async (request, reply) => {
    const decl = byClass.get((request.params as { className: string }).className);
    if (!decl) throw notFound('Contexte JSON-LD inconnu.');
    const docsUrl = apiDocsUrl(request);
    const key = `${docsUrl} ${decl.className}`;
    let body = cache.get(key);
    if (body === undefined) {
      if (cache.size >= MAX_CACHED) cache.clear();
      body = JSON.stringify(classContext(docsUrl, decl, byName));
      cache.set(key, body);
    }
    return reply.type(JSON_LD).header('Cache-Control', 'public, max-age=3600').send(body);
  });
}
