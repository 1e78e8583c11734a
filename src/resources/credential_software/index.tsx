// Identifiants: secrets are written, never read back; the list says only whether one is stored.
import { credentialSchema } from '#domain/schemas';
import { SecretInput, SecretState } from './secrets';
import type { Particular } from '../types';

export const particular: Particular = {
  schema: { create: credentialSchema, update: credentialSchema },
  cells: { hasPassword: { sortBy: false, render: (record) => <SecretState value={record.hasPassword} /> } },
  inputs: { password: SecretInput, apiKey: SecretInput, apiSecret: SecretInput },
};
