// The rules behind the settings screens: request bodies from form values, the form's fields from the API docs,
// role permissions with wildcards, the shop credential choices, the system settings editor.
import { cleanup, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import type { Resource } from '@api-platform/api-doc-parser';
import { AdminContext, Form, memoryStore, type RaRecord } from 'react-admin';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PERMISSION_CATALOGUE as PERMISSIONS } from '../../server/resources';
import { i18nProvider } from '../../src/i18n';
import { Toasts } from '../../src/layout/Toasts';
import { togglePermission } from '../../src/resources/roles/PermissionsInput';
import { compatibleCredentials, initialMapping, ShopCredentialsEditor } from '../../src/resources/shops/ShopCredentialsEditor';
import { toFormValues, toPayload } from '../../src/admin/docs';
import type { AdminEntity } from '../../src/dataProvider/adminSchema';
import { formFields } from '../../src/settings/GeneratedForm';
import { SystemSettings } from '../../src/settings/SystemSettings';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });
afterEach(cleanup);

/** The parts of a parsed resource documentation these rules read. */
function resource(fields: { name: string; readable?: boolean; writable?: boolean; reference?: string; many?: boolean }[]): Resource {
  const all = fields.map((f) => ({
    name: f.name,
    reference: f.reference ? ({ name: f.reference, fields: [] } as unknown as Resource) : null,
    maxCardinality: f.reference && !f.many ? 1 : null,
  }));
  return {
    name: 'companies',
    fields: all,
    readableFields: all.filter((_, i) => fields[i]!.readable !== false),
    writableFields: all.filter((_, i) => fields[i]!.writable !== false),
  } as unknown as Resource;
}

const companyDoc = resource([
  { name: 'name' },
  { name: 'registrationNumber' },
  { name: 'vatNumber' },
  { name: 'holding', reference: 'holdings' },
  { name: 'street' },
  { name: 'postalCode' },
  { name: 'city' },
  { name: 'country' },
  { name: 'status' },
  { name: 'tags', reference: 'tags', many: true },
  { name: 'secret', readable: false },
  { name: 'createdAt', writable: false },
]);

describe('request bodies', () => {
  test('a creation sends the writable fields that have a value', () => {
    const { payload } = toPayload(
      { id: '', name: 'Atelier', vatNumber: null, city: '', holding: '/api/holdings/2', tags: [], createdAt: 'x', fullAddress: 'y' },
      companyDoc,
    );
    expect(payload).toEqual({ name: 'Atelier', holding: '/api/holdings/2' });
  });

  test('an edit sends only what changed, a cleared field as null, a write-only field only when typed', () => {
    const initial = { name: 'Atelier', city: 'Lyon', vatNumber: 'FR1', holding: '/api/holdings/1', tags: ['/api/tags/1'], secret: undefined };
    const { payload, fullPayload } = toPayload(
      { ...initial, city: 'Marseille', vatNumber: null, holding: '/api/holdings/1', tags: [], secret: '' },
      companyDoc,
      initial,
    );
    expect(payload).toEqual({ city: 'Marseille', vatNumber: null, tags: [] });
    expect(fullPayload).toEqual({ name: 'Atelier', city: 'Marseille', holding: '/api/holdings/1' });
    expect(toPayload({ ...initial, secret: 'nouveau' }, companyDoc, initial).payload).toEqual({ secret: 'nouveau' });
  });

  test('embedded references are edited as their IRIs', () => {
    const record = {
      id: '/api/companies/1',
      holding: { '@id': '/api/holdings/1', id: 1, name: 'Audition Horizon' },
      tags: [{ '@id': '/api/tags/3' }, '/api/tags/4'],
    };
    expect(toFormValues(record, companyDoc)).toMatchObject({ holding: '/api/holdings/1', tags: ['/api/tags/3', '/api/tags/4'] });
  });
});

describe('the form fields from the API docs', () => {
  const entity = (form: AdminEntity['form']) => ({ name: 'companies', form }) as AdminEntity;

  test('a writable field the declared layout does not name comes after the laid-out ones; a read-only one is not edited', () => {
    const layout = entity({
      fields: ['name', 'registrationNumber', 'vatNumber', 'holding', 'status', 'street', 'postalCode', 'city', 'country'],
      openIn: 'edit',
    });
    expect(formFields(layout, companyDoc)).toEqual([
      'name',
      'registrationNumber',
      'vatNumber',
      'holding',
      'status',
      'street',
      'postalCode',
      'city',
      'country',
      'tags',
      'secret',
    ]);
  });

  test("tabs place their fields in order; without a layout the docs' order is kept", () => {
    const tabs = entity({
      tabs: [
        { label: 'Adresse', fields: ['city', 'street'] },
        { label: 'Général', fields: ['name'] },
      ],
      openIn: 'edit',
    });
    expect(formFields(tabs, companyDoc).slice(0, 3)).toEqual(['city', 'street', 'name']);
    expect(formFields(entity(null), companyDoc)).toEqual([
      'name',
      'registrationNumber',
      'vatNumber',
      'holding',
      'street',
      'postalCode',
      'city',
      'country',
      'status',
      'tags',
      'secret',
    ]);
  });
});

describe('role permissions', () => {
  test('ticking adds the key; unticking one key of a wildcard spells the wildcard out without it', () => {
    expect(togglePermission(['pec.view'], 'export.pec', true, PERMISSIONS)).toEqual(['pec.view', 'export.pec']);
    const next = togglePermission(['settings.shops.*', 'pec.view'], 'settings.shops.delete', false, PERMISSIONS);
    expect(next).toEqual(['settings.shops.view', 'settings.shops.create', 'settings.shops.update', 'settings.shops.export', 'pec.view']);
    expect(togglePermission(['admin.*'], 'pec.view', false, PERMISSIONS)).not.toContain('admin.*');
    expect(togglePermission(['admin.*'], 'pec.view', false, PERMISSIONS)).toHaveLength(PERMISSIONS.length - 2);
  });
});

const software = (id: number, type: string, status = 'Active'): RaRecord => ({ id: `/api/software/${id}`, label: `Logiciel ${id}`, type, status });
const credential = (id: number, softwareId: number, contextType: string, status = 'Active'): RaRecord => ({
  id: `/api/credential_software/${id}`,
  originId: String(id),
  login: `login-${id}`,
  software: { '@id': `/api/software/${softwareId}`, label: `Logiciel ${softwareId}` },
  contextType,
  status,
});

describe('the shop credential choices', () => {
  test('medical and billing software use general credentials; mutual and network their own context; only active ones', () => {
    const all = [
      credential(1, 1, 'general'),
      credential(2, 1, 'network'),
      credential(3, 2, 'general'),
      credential(4, 3, 'mutual'),
      credential(5, 1, 'general', 'Inactive'),
    ];
    expect(compatibleCredentials(software(1, 'medical'), all).map((c) => c.id)).toEqual(['/api/credential_software/1']);
    expect(compatibleCredentials(software(2, 'billing'), all).map((c) => c.id)).toEqual(['/api/credential_software/3']);
    expect(compatibleCredentials(software(3, 'mutual'), all).map((c) => c.id)).toEqual(['/api/credential_software/4']);
    expect(compatibleCredentials(software(3, 'network'), all)).toEqual([]);
  });

  test('a centre with no credential yet starts with the highest compatible id of each software, or none', () => {
    const all = [credential(7, 1, 'general'), credential(12, 1, 'general'), credential(9, 1, 'general'), credential(20, 2, 'general')];
    const list = [software(1, 'general'), software(2, 'medical'), software(3, 'network')];
    expect(initialMapping(list, all, [])).toEqual({
      '/api/software/1': '/api/credential_software/12',
      '/api/software/2': '/api/credential_software/20',
      '/api/software/3': null,
    });
  });

  test("a centre set up already starts with its own choices, and a saved 'Aucun' stays 'Aucun'", () => {
    const all = [credential(7, 1, 'general'), credential(12, 1, 'general'), credential(20, 2, 'general')];
    const list = [software(1, 'general'), software(2, 'medical')];
    expect(initialMapping(list, all, ['/api/credential_software/7'])).toEqual({
      '/api/software/1': '/api/credential_software/7',
      '/api/software/2': null,
    });
  });
});

function renderWithAdmin(children: React.ReactNode, provider: Record<string, unknown>, permissions = ['admin.*']) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const authProvider = {
    login: async () => undefined,
    logout: async () => undefined,
    checkAuth: async () => undefined,
    checkError: async () => undefined,
    getPermissions: async () => permissions,
  };
  return render(
    <AdminContext dataProvider={provider as never} authProvider={authProvider} i18nProvider={i18nProvider} store={memoryStore()} queryClient={queryClient}>
      {children}
      <Toasts />
    </AdminContext>,
  );
}

describe('the shop credential editor', () => {
  const provider = (softwareList: RaRecord[]) => ({
    adminSchema: async () => ({ entities: [] }),
    getOne: async () => ({ data: { id: '/api/companies/1', holding: { '@id': '/api/holdings/1', name: 'Audition Horizon' } } }),
    getList: async (resource: string) => ({ data: resource === 'software' ? softwareList : [credential(1, 1, 'general')], total: softwareList.length }),
  });

  test('says "Aucun logiciel disponible" when the organisation has no active software', async () => {
    renderWithAdmin(
      <Form record={{ id: '/api/shops/1', company: '/api/companies/1', credentials: [] }}>
        <ShopCredentialsEditor mode="edit" />
      </Form>,
      provider([software(1, 'medical', 'Inactive')]),
    );
    expect(await screen.findByText('Aucun logiciel disponible')).toBeInTheDocument();
  });

  test('asks for the company first on a new shop', async () => {
    renderWithAdmin(
      <Form record={{ id: '' }}>
        <ShopCredentialsEditor mode="create" />
      </Form>,
      provider([software(1, 'medical')]),
    );
    expect(await screen.findByText(/Choisissez d’abord l’entreprise du centre/)).toBeInTheDocument();
  });

  test('lists each active software with its compatible credential preselected, or says none fits', async () => {
    renderWithAdmin(
      <Form record={{ id: '/api/shops/1', company: '/api/companies/1', credentials: [] }}>
        <ShopCredentialsEditor mode="edit" />
      </Form>,
      provider([software(1, 'medical'), software(2, 'network')]),
    );
    const rows = await screen.findAllByTestId('shop-credential-row');
    expect(rows).toHaveLength(2);
    await waitFor(() => expect(within(rows[0]!).getByRole('combobox')).toHaveTextContent('login-1'));
    expect(rows[1]).toHaveTextContent('Aucun identifiant compatible disponible pour ce type de logiciel.');
  });
});

describe('the system settings screen', () => {
  const setting = (id: number, key: string, valueType: string, value: unknown, isEditable = true, category = 'integrations') => ({
    id: `/api/configs/${id}`,
    key,
    description: key,
    value,
    valueType,
    isEditable,
    category,
    updatedAt: '2026-01-05T10:00:00Z',
  });
  const data = [
    setting(1, 'integrations.partners', 'object', { itelis: true }),
    setting(2, 'general.maintenance', 'boolean', false, true, 'general'),
    setting(3, 'general.app_name', 'string', 'Pecflow', false, 'general'),
  ];
  const provider = () => ({
    getList: vi.fn(async () => ({ data, total: data.length })),
    replace: vi.fn(async (_resource: string, params: { id: string; data: unknown }) => ({ data: { id: params.id } })),
  });

  test('shows the stats, groups by category, and edits JSON values only once they are valid', async () => {
    const dp = provider();
    renderWithAdmin(<SystemSettings />, dp, ['settings.system.view', 'settings.system.edit']);
    const screenRoot = await screen.findByTestId('system-settings');
    await waitFor(() => expect(within(screenRoot).getByTestId('stat-total')).toHaveTextContent('3'));
    expect(within(screenRoot).getByTestId('stat-editable')).toHaveTextContent('2');
    expect(within(screenRoot).getByTestId('stat-readOnly')).toHaveTextContent('1');
    expect(within(screenRoot).getByTestId('stat-categories')).toHaveTextContent('2');
    expect(within(screenRoot).getByTestId('category-general')).toHaveTextContent('Général');
    expect(within(screenRoot).getByText('Note de sécurité')).toBeInTheDocument();

    const card = within(screenRoot).getByTestId('setting-integrations.partners');
    const editor = within(card).getByRole('textbox', { name: 'integrations.partners' });
    await userEvent.clear(editor);
    await userEvent.type(editor, '{{"itelis": fal');
    expect(await within(card).findByText('JSON invalide')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
    await userEvent.clear(editor);
    await userEvent.type(editor, '[[1]');
    expect(await within(card).findByText('Valeur invalide : un objet JSON est attendu.')).toBeInTheDocument();
    await userEvent.clear(editor);
    await userEvent.type(editor, '{{"itelis": false}');
    await userEvent.click(within(card).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(dp.replace).toHaveBeenCalledWith('configs', { id: '/api/configs/1', data: { value: { itelis: false } } }));
    expect(await screen.findByText('Paramètre mis à jour avec succès')).toBeInTheDocument();

    const toggle = within(within(screenRoot).getByTestId('setting-general.maintenance')).getByRole('switch', { name: 'general.maintenance' });
    await userEvent.click(toggle);
    expect(within(within(screenRoot).getByTestId('setting-general.maintenance')).getByRole('button', { name: 'Annuler' })).toBeInTheDocument();
    expect(within(within(screenRoot).getByTestId('setting-general.app_name')).getByRole('textbox')).toBeDisabled();
  });

  test('without the view permission: "Accès refusé"', async () => {
    renderWithAdmin(<SystemSettings />, provider(), ['settings.shops.view']);
    expect(await screen.findByText('Accès refusé')).toBeInTheDocument();
    expect(screen.getByText('Vous n’avez pas les permissions pour voir les paramètres système.')).toBeInTheDocument();
  });

  test('a failed load says "Impossible de charger les paramètres système"', async () => {
    const dp = provider();
    dp.getList.mockRejectedValueOnce(new Error('boom'));
    renderWithAdmin(<SystemSettings />, dp, ['settings.system.view']);
    expect(await screen.findByText('Erreur de chargement')).toBeInTheDocument();
    expect(screen.getByText('Impossible de charger les paramètres système')).toBeInTheDocument();
  });
});
