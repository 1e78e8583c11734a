// How a list tells a refused search from a failure (src/admin/searchRefusal.ts): the server's problem (as
// server/http/errors.ts sendProblem writes it), expanded as @api-platform/admin's Hydra client leaves it in its HttpError.
import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { SEARCH_WORDS } from '#domain/limits';
import { searchRefusalOf } from '../../src/admin/searchRefusal';
import jsonld from '../../src/dataProvider/jsonldOnDemand';

interface Violation {
  propertyPath: string;
  message: string;
}

async function failure(status: number, violations?: Violation[]) {
  const detail = violations ? violations.map((v) => v.message).join('\n') : 'Maintenance en cours';
  const body = {
    '@context': { '@vocab': 'http://localhost:3000/api/docs.jsonld#', hydra: 'http://www.w3.org/ns/hydra/core#' },
    '@type': violations ? 'ConstraintViolationList' : 'hydra:Error',
    status,
    detail,
    'hydra:description': detail,
    message: detail,
    ...(violations && { violations }),
  };
  return new HttpError(detail, status, await jsonld.expand(body));
}

describe('searchRefusalOf', () => {
  it("reads the server's French message refusing the search", async () => {
    const refusal = await failure(422, [{ propertyPath: 'search', message: SEARCH_WORDS.tooMany }]);
    expect(searchRefusalOf(refusal)).toBe(SEARCH_WORDS.tooMany);
  });

  it("leaves every other failure to the list's error state", async () => {
    expect(searchRefusalOf(await failure(422, [{ propertyPath: 'createdAt', message: 'Date invalide' }]))).toBeUndefined();
    expect(searchRefusalOf(await failure(503))).toBeUndefined();
    expect(searchRefusalOf(new TypeError('Failed to fetch'))).toBeUndefined();
    expect(searchRefusalOf(null)).toBeUndefined();
  });
});
