// Identifiants: secrets are written, never read back.
import { SecretInput } from './secrets';
import type { FormParticular } from '../types';

export const form: FormParticular = {
  inputs: { password: SecretInput, apiKey: SecretInput, apiSecret: SecretInput },
};
