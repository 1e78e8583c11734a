// Centres: the credential editor in the drawer's last tab (one credential per software, counted on the tab), saved
// as spec section 7 says: PUT (or POST) of the fields, then a merge-patch of the credentials.
import { chosenCredentials, ShopCredentialsEditor, type CredentialMapping } from './ShopCredentialsEditor';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  inputs: { credentials: ShopCredentialsEditor },
  badges: { credentials: (values) => chosenCredentials(values.shopCredentials as CredentialMapping | undefined)?.length || undefined },
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
