// The application's data provider: react-admin's standard methods go to the Hydra provider (loaded lazily; it maps
// every answer through the API documentation, read once), plus the calls Hydra has no verb for
// (the bulk API, PUT, the permission catalogue, the PEC robot runs, callbacks, billing, stats, import and export).
import type { DataProvider, Identifier, RaRecord } from 'ra-core';
import type { Api } from '@api-platform/api-doc-parser';
import type { PermissionDefinition, PermissionModule } from '#domain/permissions';
import { apiFetch } from './http';
import { pecMethods, type PecMethods } from './pec';
import { readAdminSchema, type AdminSchema } from './adminSchema';

type Hydra = ReturnType<typeof import('./hydra').createHydraProvider>;
type HydraProvider = Hydra['provider'];

let hydra: Promise<Hydra> | undefined;
/** The Hydra provider, loaded on first use; a failed load or reading of the API description is tried again by the next call. */
function loadHydra() {
  if (!hydra) {
    const loading = import('./hydra').then((m) => m.createHydraProvider());
    hydra = loading;
    loading
      .then(({ described }) => described)
      .catch(() => {
        if (hydra === loading) hydra = undefined;
      });
  }
  return hydra;
}

/** Reads sent while the API description is still being read (their answers wait for it in the provider). */
const READS_AT_ONCE = new Set<keyof HydraProvider>(['getList', 'getOne', 'getManyReference']);

const delegate =
  <K extends keyof HydraProvider>(method: K) =>
  (...args: Parameters<HydraProvider[K]>) =>
    loadHydra().then(async ({ provider, described }) => {
      if (!READS_AT_ONCE.has(method)) await described;
      return (provider[method] as (...a: unknown[]) => unknown)(...args);
    });

/** `/api/shops/7` for a record id that is already an IRI, `/api/shops/7` for a plain 7. */
export const itemPath = (resource: string, id: Identifier) => (String(id).startsWith('/') ? String(id) : `/api/${resource}/${id}`);

export interface PermissionCatalogue {
  member: PermissionDefinition[];
  modules: Record<PermissionModule, string>;
}

export interface AppDataProvider extends DataProvider, PecMethods {
  introspect(): Promise<{ data: Api }>;
  /** PUT: replaces the writable fields of a record (the shop save of spec section 7, the system settings). */
  replace<T extends RaRecord = RaRecord>(resource: string, params: { id: Identifier; data: Record<string, unknown> }): Promise<{ data: T }>;
  /** GET /api/permissions: every permission key with its French label, module and level. */
  permissionCatalogue(): Promise<PermissionCatalogue>;
  /** The generated admin's annotations of /api/docs.jsonld, by collection (src/dataProvider/adminSchema.ts). */
  adminSchema(): Promise<AdminSchema>;
  /** POST /api/users/{id}/invitation: a new invitation link by email ('Renvoyer l'invitation'). */
  userInvite(id: Identifier): Promise<{ message: string }>;
  /** DELETE /api/users/{id}/two-factor: the user's second factor removed (a lost phone). */
  userResetTwoFactor(id: Identifier): Promise<void>;
}

export const dataProvider = {
  getList: delegate('getList'),
  getOne: delegate('getOne'),
  getMany: delegate('getMany'),
  getManyReference: delegate('getManyReference'),
  create: delegate('create'),
  update: delegate('update'),
  delete: delegate('delete'),
  introspect: delegate('introspect'),

  // Several records at once go through the bulk API: all or nothing, in one transaction.
  async updateMany(resource: string, params: { ids: Identifier[]; data: unknown }) {
    await apiFetch(`/api/${resource}/bulk-update`, { method: 'POST', body: { ids: params.ids, data: params.data } });
    return { data: params.ids };
  },
  async deleteMany(resource: string, params: { ids: Identifier[] }) {
    await apiFetch(`/api/${resource}/bulk-delete`, { method: 'POST', body: { ids: params.ids } });
    return { data: params.ids };
  },

  async replace(resource: string, params: { id: Identifier; data: Record<string, unknown> }) {
    const body = await apiFetch<Record<string, unknown>>(itemPath(resource, params.id), { method: 'PUT', body: params.data });
    return { data: { ...body, id: body['@id'] ?? params.id } };
  },

  permissionCatalogue: () => apiFetch<PermissionCatalogue>('/api/permissions'),
  adminSchema: readAdminSchema,
  userInvite: (id: Identifier) => apiFetch<{ message: string }>(`${itemPath('users', id)}/invitation`, { method: 'POST' }),
  userResetTwoFactor: (id: Identifier) => apiFetch<void>(`${itemPath('users', id)}/two-factor`, { method: 'DELETE' }),

  ...pecMethods,
} as unknown as AppDataProvider;
