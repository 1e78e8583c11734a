// The generic list and drawer of Paramètres, with a test data provider and the API documentation generated from the
// server's own resource declarations (read by @api-platform/api-doc-parser, as in the browser).
import { act, cleanup, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { hydraSchemaAnalyzer, SchemaAnalyzerContext } from '@api-platform/admin';
import { parseHydraDocumentation, type Api } from '@api-platform/api-doc-parser';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import frenchMessages from 'ra-language-french';
import { AdminContext, HttpError, memoryStore, mergeTranslations, type AuthProvider, type I18nProvider, type RaRecord } from 'react-admin';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { RESOURCES } from '../../server/resources';
import { companiesResource } from '../../server/resources/companies';
import { apiDocumentation, entrypoint } from '../../server/hydra/docs';
import { text } from '../../server/hydra/fields';
import { searchTemplate } from '../../server/hydra/output';
import type { ResourceDeclaration } from '../../server/hydra/types';
import { companies as companiesTable } from '../../server/db/schema';
import { fr } from '../../src/i18n/fr';
import { i18nProvider } from '../../src/i18n';
import { Toasts } from '../../src/layout/Toasts';
import { companies } from '../../src/resources/companies';
import { credentials } from '../../src/resources/credentials';
import { ResourceScreen } from '../../src/settings/ResourceList';

const HOST = 'http://localhost';

// Whole screens on a shared two-core machine: give them time (these are limits, not timings under test).
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 5_000 });

/** Serves /api, /api/docs.jsonld and each collection's search template as the real server would. */
function hydraServer(declarations: ResourceDeclaration[]) {
  // The server builds its absolute URLs from PUBLIC_URL (server/http/links.ts).
  const request = { server: { ctx: { config: { publicUrl: HOST } } } } as never;
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

async function parseDocs(declarations: ResourceDeclaration[]): Promise<Api> {
  vi.stubGlobal('fetch', hydraServer(declarations));
  return (await parseHydraDocumentation(`${HOST}/api`)).api;
}

const holding = (id: number, name: string) => ({ '@id': `/api/holdings/${id}`, '@type': 'Holding', id: `/api/holdings/${id}`, originId: String(id), name });
const embedded = (id: number, name: string) => ({ '@id': `/api/holdings/${id}`, '@type': 'Holding', id, name });

function company(id: number, name: string, status = 'Active', extra: Record<string, unknown> = {}): RaRecord {
  return {
    '@id': `/api/companies/${id}`,
    id: `/api/companies/${id}`,
    originId: String(id),
    name,
    registrationNumber: `81234${id}`,
    vatNumber: null,
    holding: embedded(1, 'Audition Horizon'),
    street: null,
    postalCode: null,
    city: 'Lyon',
    country: 'France',
    status,
    ...extra,
  };
}

type Collections = Record<string, RaRecord[]>;

/** An in-memory data provider with react-admin's methods (and the schema), every method a spy. */
function testProvider(api: Api, initial: Collections) {
  const store: Collections = structuredClone(initial);
  let next = 100;
  const rows = (resource: string) => (store[resource] ??= []);
  const provider = {
    introspect: vi.fn(async () => ({ data: api })),
    getList: vi.fn(async (resource: string, params: { pagination?: { page: number; perPage: number }; filter?: Record<string, unknown> }) => {
      const { search, ...filters } = params.filter ?? {};
      let data = rows(resource).filter((r) => !search || JSON.stringify(r).toLowerCase().includes(String(search).toLowerCase()));
      for (const [key, value] of Object.entries(filters)) data = data.filter((r) => r[key] === value || (r[key] as { '@id'?: string })?.['@id'] === value);
      const { page = 1, perPage = 20 } = params.pagination ?? {};
      // Copies, as records fresh from a server would be.
      return { data: structuredClone(data.slice((page - 1) * perPage, page * perPage)), total: data.length };
    }),
    getOne: vi.fn(async (resource: string, { id }: { id: string }) => ({ data: structuredClone(rows(resource).find((r) => r.id === id)!) })),
    getMany: vi.fn(async (resource: string, { ids }: { ids: string[] }) => ({ data: structuredClone(rows(resource).filter((r) => ids.includes(String(r.id)))) })),
    getManyReference: vi.fn(async () => ({ data: [], total: 0 })),
    create: vi.fn(async (resource: string, { data }: { data: Record<string, unknown> }) => {
      const id = `/api/${resource}/${++next}`;
      const record = { ...data, '@id': id, id, originId: String(next) };
      rows(resource).push(record);
      return { data: record };
    }),
    update: vi.fn(async (resource: string, { id, data }: { id: string; data: Record<string, unknown> }) => {
      const record = rows(resource).find((r) => r.id === id)!;
      Object.assign(record, data);
      return { data: record };
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
  return provider;
}

const authProvider = (permissions: string[]): AuthProvider => ({
  login: async () => undefined,
  logout: async () => undefined,
  checkAuth: async () => undefined,
  checkError: async () => undefined,
  getPermissions: async () => permissions,
});

function renderScreen(
  config: typeof companies,
  provider: ReturnType<typeof testProvider>,
  { permissions = ['admin.*'], i18n = i18nProvider }: { permissions?: string[]; i18n?: I18nProvider } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <AdminContext dataProvider={provider as never} authProvider={authProvider(permissions)} i18nProvider={i18n} store={memoryStore()} queryClient={queryClient}>
      <SchemaAnalyzerContext.Provider value={hydraSchemaAnalyzer()}>
        <ResourceScreen config={config} />
      </SchemaAnalyzerContext.Provider>
      <Toasts />
    </AdminContext>,
  );
}

let docs: Api;
beforeAll(async () => {
  docs = await parseDocs(RESOURCES);
});
afterEach(cleanup);
afterAll(() => {
  vi.unstubAllGlobals();
});

const seeded = () => ({
  companies: [company(1, 'Horizon Audition Rhône'), company(2, 'Horizon Audition Île-de-France'), company(3, 'Horizon Sud', 'Inactive')],
  holdings: [holding(1, 'Audition Horizon'), holding(2, 'Optique Riviera')],
});

const list = () => screen.getByTestId('list-companies');
const rows = () => within(list()).queryAllByTestId('list-row');
const drawer = () => screen.getByTestId('resource-drawer');

describe('the generic list', () => {
  test('shows the title, the count, the spec columns with embedded names and status badges, Actualiser and "Nouvelle entreprise"', async () => {
    renderScreen(companies, testProvider(docs, seeded()));
    expect(await within(list()).findByText('3 entreprises trouvées')).toBeInTheDocument();
    expect(within(list()).getByRole('heading', { name: 'Entreprises' })).toBeInTheDocument();
    const headers = within(list()).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1)).toEqual(['Nom', 'SIREN', 'Organisation', 'Ville', 'Statut']);
    expect(rows()).toHaveLength(3);
    expect(rows()[0]).toHaveTextContent('Audition Horizon');
    expect(within(rows()[2]!).getByTestId('status-badge')).toHaveTextContent('❌ Désactivé');
    expect(within(rows()[0]!).getByTestId('status-badge')).toHaveTextContent('✅ Activé');
    expect(within(list()).getByRole('button', { name: 'Actualiser' })).toBeInTheDocument();
    expect(within(list()).getByRole('button', { name: 'Nouvelle entreprise' })).toBeInTheDocument();
    expect(within(list()).getByTestId('pagination')).toHaveTextContent('3 résultats');
    expect(within(list()).getByTestId('pagination')).toHaveTextContent('Page 1 / 1');
  });

  test('without the create permission there is no create button', async () => {
    renderScreen(companies, testProvider(docs, seeded()), { permissions: ['settings.companies.view'] });
    expect(await within(list()).findByText('3 entreprises trouvées')).toBeInTheDocument();
    expect(within(list()).queryByRole('button', { name: 'Nouvelle entreprise' })).not.toBeInTheDocument();
    // Neither update nor delete: nothing to select.
    expect(within(list()).queryByRole('checkbox', { name: 'Tout sélectionner' })).not.toBeInTheDocument();
  });

  test('shows 5 skeleton rows while loading', async () => {
    const provider = testProvider(docs, seeded());
    provider.getList.mockImplementation(() => new Promise(() => undefined));
    renderScreen(companies, provider);
    await waitFor(() => expect(within(list()).getAllByTestId('skeleton-row')).toHaveLength(5));
    expect(within(list()).getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  test('a failed load says so and Réessayer asks again', async () => {
    const provider = testProvider(docs, seeded());
    provider.getList.mockRejectedValueOnce(new HttpError('Erreur serveur', 500));
    renderScreen(companies, provider);
    expect(await within(list()).findByText('Erreur de chargement')).toBeInTheDocument();
    expect(within(list()).getByText('Impossible de charger les données')).toBeInTheDocument();
    // No count is claimed for a list that could not be read.
    expect(within(list()).getByTestId('list-count')).not.toHaveTextContent(/trouvée?s?/);
    await userEvent.click(within(list()).getByRole('button', { name: 'Réessayer' }));
    expect(await within(list()).findByText('3 entreprises trouvées')).toBeInTheDocument();
  });

  test('an empty list shows the entity message with a create button', async () => {
    renderScreen(companies, testProvider(docs, { companies: [], holdings: [] }));
    const empty = await within(list()).findByTestId('list-empty');
    expect(empty).toHaveTextContent('Aucune entreprise trouvée');
    expect(within(empty).getByRole('button', { name: 'Nouvelle entreprise' })).toBeInTheDocument();
  });

  test('pages by 20 and the search, debounced, is sent to the server from page 1', async () => {
    const many = Array.from({ length: 45 }, (_, i) => company(i + 1, `Entreprise ${String(i + 1).padStart(2, '0')}`));
    const provider = testProvider(docs, { companies: many, holdings: [holding(1, 'Audition Horizon')] });
    renderScreen(companies, provider);
    const pagination = await within(list()).findByTestId('pagination');
    await waitFor(() => expect(pagination).toHaveTextContent('Page 1 / 3'));
    expect(pagination).toHaveTextContent('45 résultats');
    expect(rows()).toHaveLength(20);
    await userEvent.click(within(pagination).getByRole('button', { name: 'Suivant' }));
    await waitFor(() => expect(pagination).toHaveTextContent('Page 2 / 3'));
    expect(provider.getList).toHaveBeenLastCalledWith('companies', expect.objectContaining({ pagination: { page: 2, perPage: 20 } }));

    await userEvent.type(within(list()).getByRole('searchbox', { name: 'Rechercher' }), 'Entreprise 4');
    // Not on each key stroke: once, after the pause.
    expect(provider.getList).not.toHaveBeenCalledWith('companies', expect.objectContaining({ filter: expect.objectContaining({ search: 'E' }) }));
    await waitFor(() =>
      expect(provider.getList).toHaveBeenLastCalledWith(
        'companies',
        expect.objectContaining({ filter: { search: 'Entreprise 4' }, pagination: { page: 1, perPage: 20 } }),
      ),
    );
    await waitFor(() => expect(within(list()).getByTestId('list-count')).toHaveTextContent('6 entreprises trouvées'));
    expect(pagination).toHaveTextContent('Page 1 / 1');
  });

  test('an unpaginated list (credentials) is searched in the browser, on its searchable fields', async () => {
    const credential = (id: number, login: string, software: string) => ({
      '@id': `/api/credential_software/${id}`,
      id: `/api/credential_software/${id}`,
      login,
      loginPage: 'https://exemple.fr',
      software: { '@id': '/api/software/1', id: 1, label: software, type: 'medical' },
      contextType: 'general',
      environment: 'production',
      hasPassword: id === 1,
      status: 'Active',
    });
    const provider = testProvider(docs, { credential_software: [credential(1, 'robot.horizon', 'Auditdata'), credential(2, 'robot.riviera', 'Cosium')] });
    renderScreen(credentials, provider);
    const table = await screen.findByTestId('list-credential_software');
    await waitFor(() => expect(within(table).getAllByTestId('list-row')).toHaveLength(2));
    expect(within(table).queryByTestId('pagination')).not.toBeInTheDocument();
    expect(within(table).getAllByTestId('list-row')[0]).toHaveTextContent('Défini');
    expect(within(table).getAllByTestId('list-row')[1]).toHaveTextContent('Non défini');
    const calls = provider.getList.mock.calls.length;
    // software.label is one of the searchable fields.
    await userEvent.type(within(table).getByRole('searchbox', { name: 'Rechercher' }), 'cosium');
    await waitFor(() => expect(within(table).getAllByTestId('list-row')).toHaveLength(1));
    expect(within(table).getByTestId('list-count')).toHaveTextContent('1 identifiant trouvé');
    expect(provider.getList.mock.calls.length).toBe(calls);
  });

  test('selects rows, and Désactiver changes them all at once through updateMany', async () => {
    const provider = testProvider(docs, seeded());
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByRole('checkbox', { name: 'Tout sélectionner' }));
    const bulk = within(list()).getByTestId('bulk-actions');
    expect(bulk).toHaveTextContent('3 sélectionnées');
    await userEvent.click(within(bulk).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() =>
      expect(provider.updateMany).toHaveBeenCalledWith('companies', { ids: ['/api/companies/1', '/api/companies/2', '/api/companies/3'], data: { status: 'Inactive' } }),
    );
    expect(await screen.findByText('3 entreprises mises à jour')).toBeInTheDocument();
  });

  test('bulk delete waits for the confirmation', async () => {
    const provider = testProvider(docs, seeded());
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    const rowBoxes = within(list()).getAllByRole('checkbox', { name: 'Sélectionner la ligne' });
    await userEvent.click(rowBoxes[0]!);
    await userEvent.click(rowBoxes[1]!);
    await userEvent.click(within(within(list()).getByTestId('bulk-actions')).getByRole('button', { name: 'Supprimer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Supprimer 2 éléments ?' });
    expect(dialog).toHaveTextContent('Cette action est irréversible.');
    expect(provider.deleteMany).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(provider.deleteMany).toHaveBeenCalledWith('companies', { ids: ['/api/companies/1', '/api/companies/2'] }));
    expect(await screen.findByText('2 entreprises supprimées')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(1));
  });
});

describe('the generic drawer', () => {
  test('creates: the shared schema on change, the empty values left out, the success toast, closed afterwards', async () => {
    const provider = testProvider(docs, seeded());
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByRole('button', { name: 'Nouvelle entreprise' }));
    expect(within(drawer()).getByRole('heading', { name: 'Nouvelle entreprise' })).toBeInTheDocument();
    expect(within(drawer()).queryByTestId('drawer-id')).not.toBeInTheDocument();

    const name = within(drawer()).getByRole('textbox', { name: 'Nom' });
    await userEvent.type(name, 'A');
    expect(await within(drawer()).findByText('Nom requis')).toBeInTheDocument();
    await userEvent.type(name, 'telier Sud');
    await waitFor(() => expect(within(drawer()).queryByText('Nom requis')).not.toBeInTheDocument());
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Créer' }));
    expect(await within(drawer()).findByText('SIREN requis')).toBeInTheDocument();
    expect(within(drawer()).getByText('Organisation requise')).toBeInTheDocument();
    expect(provider.create).not.toHaveBeenCalled();

    await userEvent.type(within(drawer()).getByRole('textbox', { name: 'SIREN' }), '552100554');
    await userEvent.click(within(drawer()).getByRole('combobox', { name: /^Organisation/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Optique Riviera' }));
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Créer' }));
    await waitFor(() =>
      expect(provider.create).toHaveBeenCalledWith('companies', {
        data: { name: 'Atelier Sud', registrationNumber: '552100554', holding: '/api/holdings/2', country: 'France', status: 'Active' },
      }),
    );
    expect(await screen.findByText('Entreprise créée avec succès')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('resource-drawer')).not.toBeInTheDocument());
  });

  test('edits: "ID: {id}", only the changed fields sent, "mise à jour avec succès"', async () => {
    const provider = testProvider(docs, seeded());
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByText('Horizon Sud'));
    expect(await within(drawer()).findByRole('heading', { name: 'Modifier entreprise' })).toBeInTheDocument();
    expect(within(drawer()).getByTestId('drawer-id')).toHaveTextContent('ID: 3');
    // The embedded organisation is edited as its IRI.
    expect(within(drawer()).getByRole('combobox', { name: /^Organisation/ })).toHaveTextContent('Audition Horizon');
    const city = within(drawer()).getByRole('textbox', { name: 'Ville' });
    await userEvent.clear(city);
    await userEvent.type(city, 'Marseille');
    await userEvent.clear(within(drawer()).getByRole('textbox', { name: 'SIREN' }));
    await userEvent.type(within(drawer()).getByRole('textbox', { name: 'SIREN' }), '812343');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(provider.update).toHaveBeenCalledWith('companies', expect.objectContaining({ id: '/api/companies/3', data: { city: 'Marseille' } })),
    );
    expect(await screen.findByText('Entreprise mise à jour avec succès')).toBeInTheDocument();
    expect(await within(list()).findByText('Marseille')).toBeInTheDocument();
  });

  test("stays open with the server's French violations under the fields and an error toast", async () => {
    const provider = testProvider(docs, seeded());
    const refusal = new HttpError('registrationNumber: Ce SIREN est déjà utilisé', 422, {
      message: 'Ce SIREN est déjà utilisé',
      violations: [{ propertyPath: 'registrationNumber', message: 'Ce SIREN est déjà utilisé' }],
    });
    // Answered a little later, as over a network: the form renders while it waits.
    provider.update.mockImplementationOnce(() => new Promise((_resolve, reject) => setTimeout(() => reject(refusal), 50)));
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByText('Horizon Sud'));
    const siren = await within(drawer()).findByRole('textbox', { name: 'SIREN' });
    await userEvent.clear(siren);
    await userEvent.type(siren, '812341');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(drawer()).findByText('Ce SIREN est déjà utilisé')).toBeInTheDocument();
    // The failure toast, among the stacked ones (react-admin's "Le formulaire n'est pas valide." may show beside it).
    const toast = await screen.findByText((_, element) => element?.getAttribute('data-testid') === 'toast' && !!element.textContent?.includes('Erreur'));
    expect(toast).toHaveTextContent('Ce SIREN est déjà utilisé');
    expect(drawer()).toBeInTheDocument();
    // Still there once everything has settled (a form reset would wipe it).
    await userEvent.click(within(drawer()).getByRole('textbox', { name: 'Ville' }));
    expect(within(drawer()).getByText('Ce SIREN est déjà utilisé')).toBeInTheDocument();
  });

  test('a picker whose choices cannot be loaded says so', async () => {
    const provider = testProvider(docs, seeded());
    const getList = provider.getList.getMockImplementation()!;
    provider.getList.mockImplementation(async (resource, params) => {
      if (resource === 'holdings') throw new HttpError('Accès refusé', 403, { message: 'Accès refusé' });
      return getList(resource, params);
    });
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByRole('button', { name: 'Nouvelle entreprise' }));
    expect(await screen.findByText('Impossible de charger la liste: Accès refusé')).toBeInTheDocument();
    expect(provider.getList.mock.calls.filter(([resource]) => resource === 'holdings')).toHaveLength(1);
  });

  test('deletes from the drawer after the confirmation', async () => {
    const provider = testProvider(docs, seeded());
    renderScreen(companies, provider);
    await within(list()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByText('Horizon Sud'));
    await userEvent.click(await within(drawer()).findByRole('button', { name: 'Supprimer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirmer la suppression' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(provider.delete).toHaveBeenCalledWith('companies', expect.objectContaining({ id: '/api/companies/3' })));
    expect(await screen.findByText('Entreprise supprimée avec succès')).toBeInTheDocument();
  });
});

describe('schema-driven screens', () => {
  test('a field added to the server declaration shows in the list and the form with nothing but its French label', async () => {
    const extended: ResourceDeclaration = {
      ...companiesResource,
      fields: { ...companiesResource.fields, loyaltyCode: text(companiesTable.name, { required: true }) },
    };
    const api = await parseDocs(RESOURCES.map((r) => (r === companiesResource ? extended : r)));
    const withLabel = polyglotI18nProvider(
      () => mergeTranslations(frenchMessages, fr, { resources: { companies: { fields: { loyaltyCode: 'Code fidélité' } } } }),
      'fr',
      [{ locale: 'fr', name: 'Français' }],
      { allowMissing: true },
    );
    const provider = testProvider(api, { companies: [company(1, 'Horizon Sud', 'Active', { loyaltyCode: 'FID-42' })], holdings: [holding(1, 'Audition Horizon')] });
    renderScreen(companies, provider, { i18n: withLabel });

    await within(list()).findByText('1 entreprise trouvée');
    expect(within(list()).getAllByRole('columnheader').map((h) => h.textContent)).toContain('Code fidélité');
    expect(rows()[0]).toHaveTextContent('FID-42');

    await userEvent.click(within(list()).getByText('Horizon Sud'));
    const input = await within(drawer()).findByRole('textbox', { name: 'Code fidélité' });
    expect(input).toHaveValue('FID-42');
    // Required in the API documentation: the label carries the mark.
    expect(input.closest('.MuiFormControl-root')!.querySelector('label')).toHaveTextContent(/^Code fidélité\s*\*$/);
    await userEvent.clear(input);
    await userEvent.type(input, 'FID-43');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(provider.update).toHaveBeenCalledWith('companies', expect.objectContaining({ data: { loyaltyCode: 'FID-43' } })));
    await act(async () => {
      docs = await parseDocs(RESOURCES);
    });
  });
});
