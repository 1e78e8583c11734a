// The generated list and drawer of Paramètres, at their addresses, with a test data provider and the API docs
// generated from the server's own resource declarations (read by @api-platform/api-doc-parser and the admin schema
// reader, as in the browser).
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError, type RaRecord } from 'react-admin';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { RESOURCES } from '../../server/resources';
import { location, parseDocs, renderSettings, testProvider, type Docs } from './settings/harness';

// Whole screens on a shared two-core machine: give them time (these are limits, not timings under test).
vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

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

let docs: Docs;
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
const findList = () => screen.findByTestId('list-companies');
const rows = () => within(list()).queryAllByTestId('list-row');
const drawer = () => screen.getByTestId('resource-drawer');

describe('the generic list', () => {
  test('shows the title, the count, the spec columns with embedded names and status badges, Actualiser and "Nouvelle entreprise"', async () => {
    renderSettings('/settings/companies', testProvider(docs, seeded()));
    expect(await within(await findList()).findByText('3 entreprises trouvées')).toBeInTheDocument();
    expect(within(list()).getByRole('heading', { name: 'Entreprises' })).toBeInTheDocument();
    const headers = within(list())
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
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
    renderSettings('/settings/companies', testProvider(docs, seeded()), ['settings.companies.view']);
    expect(await within(await findList()).findByText('3 entreprises trouvées')).toBeInTheDocument();
    expect(within(list()).queryByRole('button', { name: 'Nouvelle entreprise' })).not.toBeInTheDocument();
    // Neither update nor delete: nothing to select.
    expect(within(list()).queryByRole('checkbox', { name: 'Tout sélectionner' })).not.toBeInTheDocument();
  });

  test('shows 5 skeleton rows while loading', async () => {
    const provider = testProvider(docs, seeded());
    provider.getList.mockImplementation(() => new Promise(() => undefined));
    renderSettings('/settings/companies', provider);
    await waitFor(() => expect(within(list()).getAllByTestId('skeleton-row')).toHaveLength(5));
    expect(within(list()).getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  test('a failed load says so and Réessayer asks again', async () => {
    const provider = testProvider(docs, seeded());
    provider.getList.mockRejectedValueOnce(new HttpError('Erreur serveur', 500));
    renderSettings('/settings/companies', provider);
    expect(await within(await findList()).findByText('Erreur de chargement')).toBeInTheDocument();
    expect(within(list()).getByText('Impossible de charger les données')).toBeInTheDocument();
    // No count is claimed for a list that could not be read.
    expect(within(list()).getByTestId('list-count')).not.toHaveTextContent(/trouvée?s?/);
    await userEvent.click(within(list()).getByRole('button', { name: 'Réessayer' }));
    expect(await within(await findList()).findByText('3 entreprises trouvées')).toBeInTheDocument();
  });

  test('an empty list shows the entity message with a create button', async () => {
    renderSettings('/settings/companies', testProvider(docs, { companies: [], holdings: [] }));
    const empty = await within(await findList()).findByTestId('list-empty');
    expect(empty).toHaveTextContent('Aucune entreprise trouvée');
    expect(within(empty).getByRole('button', { name: 'Nouvelle entreprise' })).toBeInTheDocument();
  });

  test('pages by 20 and the search, debounced, is sent to the server from page 1', async () => {
    const many = Array.from({ length: 45 }, (_, i) => company(i + 1, `Entreprise ${String(i + 1).padStart(2, '0')}`));
    const provider = testProvider(docs, { companies: many, holdings: [holding(1, 'Audition Horizon')] });
    renderSettings('/settings/companies', provider);
    const pagination = await within(await findList()).findByTestId('pagination');
    await waitFor(() => expect(pagination).toHaveTextContent('Page 1 / 3'));
    expect(pagination).toHaveTextContent('45 résultats');
    expect(rows()).toHaveLength(20);
    await userEvent.click(within(pagination).getByRole('button', { name: 'Suivant' }));
    await waitFor(() => expect(pagination).toHaveTextContent('Page 2 / 3'));
    // Page 2 asked of the server and shown (a background refetch of page 1 may come after it: the last call proves nothing).
    expect(provider.getList).toHaveBeenCalledWith('companies', expect.objectContaining({ pagination: { page: 2, perPage: 20 } }));
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Entreprise 21'));
    expect(rows()).toHaveLength(20);
    expect(rows()[19]).toHaveTextContent('Entreprise 40');

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
    // The search and the page are in the address (a reload or a shared link shows the same list).
    const query = new URLSearchParams(location.current.split('?')[1]);
    expect(JSON.parse(query.get('filter')!)).toEqual({ search: 'Entreprise 4' });
    expect(query.get('page')).toBe('1');
  });

  test('filters and sort come from the address and go to it', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings(`/settings/companies?filter=${encodeURIComponent(JSON.stringify({ status: 'Inactive' }))}&sort=city&order=DESC&page=1&perPage=20`, provider);
    expect(await within(await findList()).findByText('1 entreprise trouvée')).toBeInTheDocument();
    expect(provider.getList).toHaveBeenLastCalledWith(
      'companies',
      expect.objectContaining({ filter: { status: 'Inactive' }, sort: { field: 'city', order: 'DESC' }, pagination: { page: 1, perPage: 20 } }),
    );
    expect(rows()).toHaveLength(1);
    expect(within(list()).getByRole('combobox', { name: /^Statut/ })).toHaveTextContent('❌ Désactivé');
    await userEvent.click(within(list()).getByRole('combobox', { name: /^Statut/ }));
    await userEvent.click(await screen.findByRole('option', { name: '✅ Activé' }));
    await waitFor(() => expect(within(list()).getByTestId('list-count')).toHaveTextContent('2 entreprises trouvées'));
    expect(JSON.parse(new URLSearchParams(location.current.split('?')[1]).get('filter')!)).toEqual({ status: 'Active' });
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
    renderSettings('/settings/credential_software', provider);
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
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByRole('checkbox', { name: 'Tout sélectionner' }));
    const bulk = within(list()).getByTestId('bulk-actions');
    expect(bulk).toHaveTextContent('3 sélectionnées');
    await userEvent.click(within(bulk).getByRole('button', { name: 'Désactiver' }));
    await waitFor(() =>
      expect(provider.updateMany).toHaveBeenCalledWith('companies', {
        ids: ['/api/companies/1', '/api/companies/2', '/api/companies/3'],
        data: { status: 'Inactive' },
      }),
    );
    expect(await screen.findByText('3 entreprises mises à jour')).toBeInTheDocument();
  });

  test('bulk delete waits for the confirmation', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
    const rowBoxes = rows().map((row) => within(row).getByRole('checkbox'));
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

describe("the audit trail's date filter", () => {
  test('is typed and shown dd/mm/yyyy whatever the browser language, and filters from that day', async () => {
    window.matchMedia ??= ((query: string) => ({
      matches: query.includes('pointer: fine'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
    expect(navigator.language).toBe('en-US');
    const provider = testProvider(docs, { audit_logs: [], users: [] });
    renderSettings('/settings/audit_logs', provider);
    const audit = await screen.findByTestId('list-audit_logs');
    const from = () => within(audit).getByRole('textbox', { name: 'Du' });
    await waitFor(() => expect(from()).toBeEnabled());
    await userEvent.click(from());
    await userEvent.keyboard('05012026');
    expect(from()).toHaveValue('05/01/2026');
    await waitFor(() =>
      expect(provider.getList).toHaveBeenLastCalledWith('audit_logs', expect.objectContaining({ filter: { createdAt: { after: '2026-01-05' } } })),
    );
  });
});

describe('the generic drawer', () => {
  test('creates: the shared schema on change, the empty values left out, the success toast, closed afterwards', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
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
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
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
    expect(await within(await findList()).findByText('Marseille')).toBeInTheDocument();
  });

  test("stays open with the server's French violations under the fields and an error toast", async () => {
    const provider = testProvider(docs, seeded());
    const refusal = new HttpError('registrationNumber: Ce SIREN est déjà utilisé', 422, {
      message: 'Ce SIREN est déjà utilisé',
      violations: [{ propertyPath: 'registrationNumber', message: 'Ce SIREN est déjà utilisé' }],
    });
    // Answered a little later, as over a network: the form renders while it waits.
    provider.update.mockImplementationOnce(() => new Promise((_resolve, reject) => setTimeout(() => reject(refusal), 50)));
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByText('Horizon Sud'));
    const siren = await within(drawer()).findByRole('textbox', { name: 'SIREN' });
    await userEvent.clear(siren);
    await userEvent.type(siren, '812341');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(drawer()).findByText('Ce SIREN est déjà utilisé')).toBeInTheDocument();
    // ONE toast for the refused save: the server's reason (react-admin's "Le formulaire n’est pas valide." no longer stacks beside it).
    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(1));
    expect(screen.getByTestId('toast')).toHaveTextContent('Erreur');
    expect(screen.getByTestId('toast')).toHaveTextContent('Ce SIREN est déjà utilisé');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(drawer()).toBeInTheDocument();
    // Still there once everything has settled (a form reset would wipe it).
    await userEvent.click(within(drawer()).getByRole('textbox', { name: 'Ville' }));
    expect(within(drawer()).getByText('Ce SIREN est déjà utilisé')).toBeInTheDocument();
  });

  test('a save the browser refuses shows its errors and ONE toast, and sends nothing', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings('/settings/companies/create', provider);
    const name = await within(await screen.findByTestId('resource-drawer')).findByRole('textbox', { name: 'Nom' });
    await userEvent.type(name, 'Atelier');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Créer' }));
    expect(await within(drawer()).findByText('SIREN requis')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(1));
    expect(screen.getByTestId('toast')).toHaveTextContent('ErreurLe formulaire n’est pas valide.');
    expect(provider.create).not.toHaveBeenCalled();
  });

  test('a record has its address: /settings/companies/3 opens its drawer, closing it goes back to the list', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings('/settings/companies/3', provider);
    // Its record read: the drawer's content is drawn again then (a heading found earlier may be one drawn before).
    await waitFor(() => expect(within(drawer()).getByRole('textbox', { name: 'Nom' })).toHaveValue('Horizon Sud'));
    expect(within(drawer()).getByRole('heading', { name: 'Modifier entreprise' })).toBeInTheDocument();
    expect(within(drawer()).getByTestId('drawer-id')).toHaveTextContent('ID: 3');
    await userEvent.click(within(drawer()).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(location.current).toMatch(/^\/settings\/companies(\?|$)/));
    await waitFor(() => expect(screen.queryByTestId('resource-drawer')).not.toBeInTheDocument());
    // A row leads to its own address.
    await userEvent.click(await within(list()).findByText('Horizon Audition Rhône'));
    await waitFor(() => expect(location.current).toMatch(/^\/settings\/companies\/1(\?|$)/));
  });

  test('the former addresses lead to their entity: /settings/mutuelles is the mutuals list', async () => {
    renderSettings('/settings/mutuelles', testProvider(docs, { mutuals: [] }));
    expect(await screen.findByTestId('list-mutuals')).toBeInTheDocument();
    expect(location.current).toMatch(/^\/settings\/mutuals/);
  });

  test('a picker whose choices cannot be loaded says so', async () => {
    const provider = testProvider(docs, seeded());
    const getList = provider.getList.getMockImplementation()!;
    provider.getList.mockImplementation(async (resource, params) => {
      if (resource === 'holdings') throw new HttpError('Accès refusé', 403, { message: 'Accès refusé' });
      return getList(resource, params);
    });
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByRole('button', { name: 'Nouvelle entreprise' }));
    expect(await screen.findByText('Impossible de charger la liste: Accès refusé')).toBeInTheDocument();
    expect(provider.getList.mock.calls.filter(([resource]) => resource === 'holdings')).toHaveLength(1);
  });

  test('deletes from the drawer after the confirmation', async () => {
    const provider = testProvider(docs, seeded());
    renderSettings('/settings/companies', provider);
    await within(await findList()).findByText('3 entreprises trouvées');
    await userEvent.click(within(list()).getByText('Horizon Sud'));
    await userEvent.click(await within(drawer()).findByRole('button', { name: 'Supprimer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirmer la suppression' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(provider.delete).toHaveBeenCalledWith('companies', expect.objectContaining({ id: '/api/companies/3' })));
    expect(await screen.findByText('Entreprise supprimée avec succès')).toBeInTheDocument();
  });
});
