// The application's data provider: react-admin's standard methods go to the Hydra provider (loaded lazily).
import type { DataProvider } from 'ra-core';

type HydraProvider = ReturnType<typeof import('./hydra').createHydraProvider>;

let hydra: Promise<HydraProvider> | undefined;
const loadHydra = () => (hydra ??= import('./hydra').then((m) => m.createHydraProvider()));

const delegate =
  <K extends keyof HydraProvider>(method: K) =>
  (...args: Parameters<HydraProvider[K]>) =>
    loadHydra().then((provider) => (provider[method] as (...a: unknown[]) => unknown)(...args));

export const dataProvider = {
  getList: delegate('getList'),
  getOne: delegate('getOne'),
  getMany: delegate('getMany'),
  getManyReference: delegate('getManyReference'),
  create: delegate('create'),
  update: delegate('update'),
  updateMany: delegate('updateMany'),
  delete: delegate('delete'),
  deleteMany: delegate('deleteMany'),
  introspect: delegate('introspect'),
} as unknown as DataProvider & { introspect: () => Promise<{ data: unknown }> };
