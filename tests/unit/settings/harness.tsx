// The settings page as the browser runs it, for unit tests: the API docs generated from server declarations (read by
// the application's docs parser and admin schema reader, as in the browser), an in-memory data provider whose
// methods are spies, the real i18n, the toasts, and a router at a given address.
import { render } from '@testing-library/react';
import { useEffect } from 'react';
import { QueryClient } from '@tanstack/react-query';
import type { Api } from '@api-platform/api-doc-parser';
import { AdminContext, memoryStore, type AuthProvider, type RaRecord } from 'react-admin';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { apiDocumentation, entrypoint } from '../../../server/hydra/docs';
import { searchTemplate } from '../../../server/hydra/output';
import type { ResourceDeclaration } from '../../../server/hydra/types';
import { parseAdminSchema } from '../../../src/dataProvider/adminSchema';
import { toApi } from '../../../src/dataProvider/docsApi';
import { readCompactDocs } from '../../../src/dataProvider/docsParser';
import { i18nProvider } from '../../../src/i18n';
import { Toasts } from '../../../src/layout/Toasts';
import SettingsPage from '../../../src/settings/SettingsPage';

const HOST = 'http://localhost';
// The server builds its absolute URLs from PUBLIC_URL (server/http/links.ts).
const request = { server: { ctx: { config: { publicUrl: HOST } } } } as never;

/** Serves /api, /api/docs.jsonld and each collection's search template as the real server would. */
export function hydraServer(declarations: ResourceDeclaration[]) {
  const headers = {
    'Content-Type': 'application/ld+json',
    Link: `<${HOST}/api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
  };
  return async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input instanceof Request ? input.url : input), HOST);
    const json = (body: unknown) => new Response(JSON.stringify(body), { headers });
    if (pathname === '/api') return json(entrypoint(request, declarations));
    if (pathname === '/api/docs.jsonld') return json(apiDocumentation(request, declarations));
    const decl = declarations.find((d) => pathname === `/api/${d.name}`);
    if (decl) return json({ '@id': pathname, '@type': 'hydra:Collection', totalItems: 0, member: [], search: searchTemplate(decl) });
    return new Response('', { status: 404 });
  };
}

export interface Docs {
  api: Api;
  declarations: ResourceDeclaration[];
}

/** The docs of these declarations, parsed as the application parses them (tests/unit/docs-parser.test.ts compares with @api-platform/api-doc-parser). */
export async function parseDocs(declarations: ResourceDeclaration[]): Promise<Docs> {
  return { api: toApi(readCompactDocs(JSON.parse(JSON.stringify(apiDocumentation(request, declarations)))), `${HOST}/api`), declarations };
}

type Collections = Record<string, RaRecord[]>;

/** An in-memory data provider with react-admin's methods, the introspection and the admin schema, every method a spy. */
export function testProvider(docs: Docs, initial: Collections) {
  const store: Collections = structuredClone(initial);
  let next = 100;
  const rows = (resource: string) => (store[resource] ??= []);
  const find = (resource: string, id: unknown) => rows(resource).find((r) => r.id === id || r.originId === String(id));
  return {
    store,
    introspect: vi.fn(async () => ({ data: docs.api })),
    adminSchema: vi.fn(async () => parseAdminSchema(apiDocumentation(request, docs.declarations) as never)),
    getList: vi.fn(async (resource: string, params: { pagination?: { page: number; perPage: number }; filter?: Record<string, unknown> }) => {
      const { search, ...filters } = params.filter ?? {};
      let data = rows(resource).filter((r) => !search || JSON.stringify(r).toLowerCase().includes(String(search).toLowerCase()));
      for (const [key, value] of Object.entries(filters)) data = data.filter((r) => r[key] === value || (r[key] as { '@id'?: string })?.['@id'] === value);
      const { page = 1, perPage = 20 } = params.pagination ?? {};
      // Copies, as records fresh from a server would be.
      return { data: structuredClone(data.slice((page - 1) * perPage, page * perPage)), total: data.length };
    }),
    getOne: vi.fn(async (resource: string, { id }: { id: string }) => ({ data: structuredClone(find(resource, id)!) })),
    getMany: vi.fn(async (resource: string, { ids }: { ids: string[] }) => ({
      data: structuredClone(rows(resource).filter((r) => ids.includes(String(r.id)))),
    })),
    getManyReference: vi.fn(async () => ({ data: [], total: 0 })),
    create: vi.fn(async (resource: string, { data }: { data: Record<string, unknown> }) => {
      const id = `/api/${resource}/${++next}`;
      const record = { ...data, '@id': id, id, originId: String(next) };
      rows(resource).push(record);
      return { data: record };
    }),
    update: vi.fn(async (resource: string, { id, data }: { id: string; data: Record<string, unknown> }) => {
      const record = find(resource, id)!;
      Object.assign(record, data);
      return { data: structuredClone(record) };
    }),
    updateMany: vi.fn(async (resource: string, { ids, data }: { ids: string[]; data: Record<string, unknown> }) => {
      for (const r of rows(resource)) if (ids.includes(String(r.id))) Object.assign(r, data);
      return { data: ids };
    }),
    delete: vi.fn(async (resource: string, { id }: { id: string }) => {
      store[resource] = rows(resource).filter((r) => r.id !== id);
      return { data: { id } };
    }),
    deleteMany: vi.fn(async (resource: string, { ids }: { ids: string[] }) => {
      store[resource] = rows(resource).filter((r) => !ids.includes(String(r.id)));
      return { data: ids };
    }),
  };
}

export type TestProvider = ReturnType<typeof testProvider>;

export const authProvider = (permissions: string[]): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => permissions,
});

/** Where the app is: the path and query, updated on every navigation. */
export const location = { current: '' };
function LocationProbe() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    location.current = `${pathname}${search}`;
  }, [pathname, search]);
  return null;
}

/** The settings page at `path` (/settings/companies, /settings/companies/3…). */
export function renderSettings(path: string, provider: TestProvider, permissions: string[] = ['admin.*']) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AdminContext
        dataProvider={provider as never}
        authProvider={authProvider(permissions)}
        i18nProvider={i18nProvider}
        store={memoryStore()}
        queryClient={queryClient}
      >
        <Routes>
          <Route path="/settings/*" element={<SettingsPage />} />
        </Routes>
        <LocationProbe />
        <Toasts />
      </AdminContext>
    </MemoryRouter>,
  );
}
