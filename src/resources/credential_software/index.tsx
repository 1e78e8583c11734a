// Identifiants: one list without pagination, searched in the browser; secrets are never shown, only whether one is set.
import { CONTEXT_TYPES, credentialSchema, ENVIRONMENTS } from '../../domain/schemas';
import { ChoiceLabel } from '../../settings/fields';
import { ENTITY_STATUS_CHOICES, labelled, statusColumn, statusFilter } from '../shared';
import { SecretInput, SecretState } from './secrets';
import type { ResourceConfig } from '../types';

export const credentials: ResourceConfig = {
  name: 'credential_software',
  section: 'credentials',
  columns: [
    { source: 'login' },
    { source: 'software' },
    { source: 'contextType', sortBy: false, render: (record) => <ChoiceLabel prefix="softwareType" value={record.contextType} /> },
    { source: 'environment', sortBy: false, render: (record) => <ChoiceLabel prefix="environment" value={record.environment} /> },
    { source: 'hasPassword', sortBy: false, render: (record) => <SecretState value={record.hasPassword} /> },
    statusColumn,
  ],
  listExclude: ['loginPage', 'contextName', 'holding', 'displayIdentifier', 'hasApiKey', 'hasApiSecret'],
  filters: [{ kind: 'reference', source: 'software', reference: 'software', optionText: 'label' }, statusFilter()],
  searchable: ['login', 'contextName', 'displayIdentifier', 'software.label'],
  paginated: false,
  scopeToHolding: true,
  form: {
    fields: ['software', 'login', 'password', 'loginPage', 'contextType', 'contextName', 'environment', 'status', 'apiKey', 'apiSecret', 'displayIdentifier'],
    fullWidth: ['loginPage'],
  },
  choices: {
    status: ENTITY_STATUS_CHOICES,
    contextType: labelled('softwareType', CONTEXT_TYPES),
    environment: labelled('environment', ENVIRONMENTS),
  },
  inputs: { password: SecretInput, apiKey: SecretInput, apiSecret: SecretInput },
  schema: { create: credentialSchema, update: credentialSchema },
  defaults: () => ({ status: 'Active', contextType: 'general', environment: 'production' }),
};
