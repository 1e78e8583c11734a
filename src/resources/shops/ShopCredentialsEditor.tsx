// The shop credential editor (spec section 2): for each active software, one compatible active credential or none.
// Medical and billing software use general credentials; among several, the highest id is preselected.
import { Alert, Box, MenuItem, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useMemo, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useGetList, useGetOne, useTranslate, type RaRecord } from 'react-admin';
import { useEntity } from '../../admin/docs';
import { ChoiceLabel } from '../../admin/cells';
import type { FormPartProps } from '../types';

/** Software IRI -> chosen credential IRI (or null for none): the form field shopCredentials. */
export type CredentialMapping = Record<string, string | null>;

export const chosenCredentials = (mapping: CredentialMapping | undefined) =>
  mapping ? Object.values(mapping).filter((iri): iri is string => !!iri) : undefined;

/** The context of the credentials a software uses. */
export const contextOf = (softwareType: unknown) => (softwareType === 'mutual' || softwareType === 'network' ? softwareType : 'general');

const numericId = (record: RaRecord) => Number(record.originId ?? String(record.id).split('/').pop());
const softwareOf = (credential: RaRecord) => (credential.software as { '@id'?: string } | null)?.['@id'] ?? credential.software;

/** The active credentials of this software whose context fits it, highest id first. */
export function compatibleCredentials(software: RaRecord, credentials: RaRecord[]) {
  return credentials
    .filter((c) => c.status === 'Active' && softwareOf(c) === software.id && c.contextType === contextOf(software.type))
    .sort((a, b) => numericId(b) - numericId(a));
}

/**
 * What the editor starts with: for a centre that has no credential yet (new, or never set up), the highest compatible
 * id of each software; for a centre set up already, its own choices, "Aucun" included (preselecting there would undo
 * a saved "Aucun").
 */
export function initialMapping(software: RaRecord[], credentials: RaRecord[], current: unknown): CredentialMapping {
  const held = new Set(Array.isArray(current) ? current.map(String) : []);
  const mapping: CredentialMapping = {};
  for (const item of software) {
    const compatible = compatibleCredentials(item, credentials);
    const chosen = held.size === 0 ? compatible[0] : compatible.find((c) => held.has(String(c.id)));
    mapping[String(item.id)] = chosen ? String(chosen.id) : null;
  }
  return mapping;
}

const ALL = { page: 1, perPage: 100 };

export function ShopCredentialsEditor({ record, readOnly }: FormPartProps) {
  const translate = useTranslate();
  const credentialLabel = useEntity('credential_software').entity?.label.singular;
  const { setValue } = useFormContext();
  const mapping = useWatch({ name: 'shopCredentials' }) as CredentialMapping | undefined;
  // The shop's organisation (through its company) owns the software and credentials it may use.
  const company = useWatch({ name: 'company' }) as string | null | undefined;
  const { data: companyRecord } = useGetOne('companies', { id: company ?? '' }, { enabled: !!company });
  const holding = (companyRecord?.holding as { '@id'?: string } | undefined)?.['@id'];
  const filter = { holding };
  const softwareList = useGetList('software', { pagination: ALL, sort: { field: 'label', order: 'ASC' }, filter }, { enabled: !!holding });
  const credentialList = useGetList(
    'credential_software',
    { pagination: { page: 1, perPage: 5000 }, sort: { field: '', order: 'ASC' }, filter },
    { enabled: !!holding },
  );

  const software = useMemo(() => (softwareList.data ?? []).filter((s) => s.status === 'Active'), [softwareList.data]);
  const credentials = useMemo(() => (credentialList.data ?? []).filter((c) => c.status === 'Active'), [credentialList.data]);
  const loading = softwareList.isPending || credentialList.isPending;

  // The choices start from the shop's current credentials; another organisation (a new company) starts afresh, and
  // so does another centre. Checked after every render: the drawer's form resets its values (after a save, or when
  // the record arrives) after this child's effects ran, which leaves the field empty again.
  const startedFor = useRef<string>(undefined);
  useEffect(() => {
    const start = `${record?.id ?? 'new'}|${holding}`;
    if (!holding || loading || (startedFor.current === start && mapping !== undefined)) return;
    startedFor.current = start;
    setValue('shopCredentials', initialMapping(software, credentials, record?.credentials), { shouldDirty: false });
  });

  if (!company) return <Typography color="text.secondary">{translate('pecflow.settings.shops.chooseCompany')}</Typography>;
  if (softwareList.error || credentialList.error) {
    return <Alert severity="error">{translate('pecflow.settings.list.errorText')}</Alert>;
  }
  if (loading) return <Skeleton height={120} />;
  if (software.length === 0) return <Typography color="text.secondary">{translate('pecflow.settings.shops.noSoftware')}</Typography>;

  return (
    <Stack spacing={2} data-testid="shop-credentials">
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.settings.shops.intro')}
      </Typography>
      {software.map((item) => {
        const compatible = compatibleCredentials(item, credentials);
        const key = String(item.id);
        return (
          <Box key={key} data-testid="shop-credential-row">
            <Typography fontWeight={600}>
              {String(item.label)}{' '}
              <Typography component="span" variant="body2" color="text.secondary">
                (<ChoiceLabel collection="software" field="type" value={item.type} />)
              </Typography>
            </Typography>
            {compatible.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {translate('pecflow.settings.shops.noCredential')}
              </Typography>
            ) : (
              <TextField
                select
                fullWidth
                size="small"
                sx={{ mt: 1 }}
                label={credentialLabel}
                value={mapping?.[key] ?? ''}
                disabled={readOnly}
                onChange={(event) => setValue('shopCredentials', { ...mapping, [key]: event.target.value || null }, { shouldDirty: true })}
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
              >
                <MenuItem value="">{translate('pecflow.settings.shops.noneChosen')}</MenuItem>
                {compatible.map((credential) => (
                  <MenuItem key={credential.id} value={String(credential.id)}>
                    {[credential.login, credential.contextName, credential.environment].filter(Boolean).join(' · ')}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
