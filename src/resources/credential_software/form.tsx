// Identifiants: the shared rules; secrets are written, never read back.
import { credentialSchema } from '#domain/schemas';
import { SecretInput } from './secrets';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  schema: { create: credentialSchema, update: credentialSchema },
  inputs: { password: SecretInput, apiKey: SecretInput, apiSecret: SecretInput },
};
