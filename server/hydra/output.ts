// JSON-LD documents: items, collections with their pagination view and search template.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '#domain/iri';
import { publicBaseUrl } from '../http/links';
import type { ListQuery } from './query';
import type { ResourceDeclaration, Row } from './types';

export const JSON_LD = 'application/ld+json; charset=utf-8';

/** Where the @context of a class's items and collections is served (contexts.ts): absolute, so a document read alone still expands. */
export function contextUrl(request: FastifyRequest, className: string) {
  return `${publicBaseUrl(request.server)}${API_PREFIX}/contexts/${className}`;
}

export function sendJsonLd(reply: FastifyReply, status: number, body: unknown) {
  return reply.status(status).type(JSON_LD).send(body);
}

export function itemDocument(request: FastifyRequest, decl: ResourceDeclaration, item: Row) {
  return { '@context': contextUrl(request, decl.className), ...item };
}

function pageUrl(request: FastifyRequest, page: number) {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}?${url.searchParams.toString()}`;
}

/** The filters a collection understands, as a Hydra IriTemplate (read by the admin to build its filters). */
export function searchTemplate(decl: ResourceDeclaration) {
  // id and id[] (many by IRI): @api-platform/admin's getMany asks for a page of ids when the template offers `id`.
  const variables: { variable: string; property: string | null }[] = [
    { variable: 'id', property: 'id' },
    { variable: 'id[]', property: 'id' },
  ];
  if (decl.search?.length) variables.push({ variable: 'search', property: null });
  for (const key of Object.keys(decl.filters ?? {})) {
    variables.push({ variable: key, property: key.split('.')[0]! }, { variable: `${key}[]`, property: key.split('.')[0]! });
  }
  for (const key of Object.keys(decl.conditionFilters ?? {})) variables.push({ variable: key, property: null });
  for (const key of Object.keys(decl.rangeFilters ?? {})) {
    variables.push({ variable: `${key}[before]`, property: key }, { variable: `${key}[after]`, property: key });
  }
  for (const key of Object.keys(decl.order)) variables.push({ variable: `order[${key}]`, property: key });
  return {
    '@type': 'hydra:IriTemplate',
    template: `${API_PREFIX}/${decl.name}{?${variables.map((v) => v.variable).join(',')}}`,
    variableRepresentation: 'BasicRepresentation',
    mapping: variables.map((v) => ({ '@type': 'IriTemplateMapping', variable: v.variable, property: v.property, required: false })),
  };
}

export function collectionDocument(request: FastifyRequest, decl: ResourceDeclaration, members: Row[], total: number, query: ListQuery) {
  const { head, tail } = collectionParts(request, decl, total, query);
  return { ...head, member: members, ...tail };
}

/**
 * The same document as text, around members already written as a JSON array (ResourceRepository.listJson): the text
 * before them, the members, the text after them.
 */
export function collectionText(request: FastifyRequest, decl: ResourceDeclaration, members: string, total: number, query: ListQuery): [string, string, string] {
  const { head, tail } = collectionParts(request, decl, total, query);
  return [`${JSON.stringify(head).slice(0, -1)},"member":`, members, `,${JSON.stringify(tail).slice(1)}`];
}

/** A declaration's template, made once (every list answer carries it). */
const searchTemplates = new WeakMap<ResourceDeclaration, ReturnType<typeof searchTemplate>>();

/** What comes before the members, and after them. */
function collectionParts(request: FastifyRequest, decl: ResourceDeclaration, total: number, query: ListQuery) {
  const head: Row = {
    '@context': contextUrl(request, decl.className),
    '@id': `${API_PREFIX}/${decl.name}`,
    '@type': 'hydra:Collection',
    totalItems: total,
  };
  const tail: Row = {};
  if (query.paginate) {
    const last = Math.max(1, Math.ceil(total / query.itemsPerPage));
    const view: Row = { '@id': pageUrl(request, query.page), '@type': 'hydra:PartialCollectionView', first: pageUrl(request, 1), last: pageUrl(request, last) };
    if (query.page > 1) view.previous = pageUrl(request, query.page - 1);
    if (query.page < last) view.next = pageUrl(request, query.page + 1);
    tail.view = view;
  }
  tail.search = searchTemplates.get(decl) ?? searchTemplates.set(decl, searchTemplate(decl)).get(decl);
  return { head, tail };
}
