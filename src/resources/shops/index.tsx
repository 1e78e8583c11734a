// Centres: display name and company in the list; a three-tab drawer whose last tab chooses the robot's credentials,
// saved as spec section 7 says: PUT (or POST) of the fields, then a merge-patch of the credentials.
import { shopSchema, SPECIALITES } from '../../domain/schemas';
import { ADDRESS_FIELDS, ENTITY_STATUS_CHOICES, statusColumn, statusFilter } from '../shared';
import { chosenCredentials, ShopCredentialsEditor, type CredentialMapping } from './ShopCredentialsEditor';
import type { ResourceConfig } from '../types';

export const shops: ResourceConfig = {
  name: 'shops',
  section: 'shops',
  columns: [{ source: 'name' }, { source: 'displayName' }, { source: 'company' }, { source: 'city' }, { source: 'specialite' }, statusColumn],
  listExclude: ['numero', 'siret', 'street', 'postalCode', 'country', 'email', 'phone', 'finess', 'rpps', 'codeClient', 'credentials'],
  filters: [statusFilter()],
  searchable: ['name', 'displayName', 'city', 'siret', 'codeClient'],
  scopeToHolding: true,
  form: {
    tabs: [
      {
        label: 'pecflow.settings.shops.tabs.general',
        fields: ['name', 'displayName', 'numero', 'company', 'specialite', 'status', 'siret', 'finess', 'rpps', 'codeClient'],
      },
      { label: 'pecflow.settings.shops.tabs.contact', fields: [...ADDRESS_FIELDS, 'email', 'phone'] },
      {
        label: 'pecflow.settings.shops.tabs.credentials',
        component: ShopCredentialsEditor,
        badge: (values) => chosenCredentials(values.shopCredentials as CredentialMapping | undefined)?.length || undefined,
      },
    ],
    fullWidth: ['street'],
    exclude: ['credentials'],
  },
  choices: { status: ENTITY_STATUS_CHOICES, specialite: SPECIALITES.map((id) => ({ id, name: id })) },
  schema: { create: shopSchema, update: shopSchema },
  defaults: () => ({ status: 'Active', country: 'France', specialite: 'Audioprothésiste' }),
  async save({ mode, dataProvider, values, fullPayload, record }) {
    const { credentials: _credentials, ...fields } = fullPayload;
    const saved =
      mode === 'create'
        ? (await dataProvider.create('shops', { data: fields })).data
        : (await dataProvider.replace('shops', { id: record!.id, data: fields })).data;
    const credentials = chosenCredentials(values.shopCredentials as CredentialMapping | undefined) ?? (record?.credentials as string[] | undefined) ?? [];
    // The merge-patch's answer is the centre as saved (the PUT's still has the former credentials).
    return (await dataProvider.update('shops', { id: saved.id, data: { credentials }, previousData: saved })).data;
  },
};
