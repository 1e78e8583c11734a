// The file's form (spec sections 2, 3 and 5): created in the drawer ("Informations PEC"), read-only in view mode
// ("Informations initiales"), editable there with pec.edit. The mutual select waits for a network, is reset when the
// network changes and offers that network's mutuals only; the Itelis / Santéclair notice; "Prérequis manquants".
import { Alert, Box, Button, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ComponentProps } from 'react';
import { useTranslate } from 'react-admin';
import { z } from 'zod';
import { readAuthStore } from '../authProvider/session';
import { pecApi, type OptionRecord, type PecDossierRecord } from '../dataProvider/pec';
import { formatDate, formatEuros } from '../domain/format';
import { idFromReference, iriOf } from '../domain/iri';
import { TEXTAREA_ROWS } from '../domain/limits';
import {
  CONTRACT_NUMBER_NOTICE,
  isPecStatus,
  MANUAL_TRANSITIONS,
  missingPrerequisites,
  needsContractNumberNotice,
  pecFormSchema,
  pecStatusLabel,
} from '../domain/pec';
import { useToast } from '../layout/Toasts';
import { PEC_RESOURCE, PEC_STATS_QUERY_KEY } from './liveEvents';
import { FormBox, MissingPrerequisites, useDossierText, useErrorText, usePecRights, useZodForm } from './shared';

const MINUTE = 60_000;
const optionKey = (...parts: unknown[]) => ['pecflow', 'pec-options', ...parts];
const editSchema = pecFormSchema.extend({ status: z.string().optional() });

/** The reference lists of the form, with the spec's cache times (section 9). */
function useOptions(networkId: number | undefined, enabled: boolean) {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const holdingId = readAuthStore().user?.holdingId ?? undefined;
  // The networks are read only for a user of an organisation; a 403 gives an empty list (spec section 6).
  const networks = useQuery({
    queryKey: optionKey('networks', holdingId),
    queryFn: () => pecApi.networks(holdingId!).catch((error) => ((error as { status?: number }).status === 403 ? [] : Promise.reject(error))),
    enabled: enabled && !!holdingId,
    staleTime: 10 * MINUTE,
    gcTime: 10 * MINUTE,
  });
  const shops = useQuery({ queryKey: optionKey('shops'), queryFn: pecApi.shops, enabled, staleTime: 10 * MINUTE, gcTime: 10 * MINUTE, retry: 2 });
  const mutuals = useQuery({
    queryKey: optionKey('mutuals', networkId),
    queryFn: () => pecApi.mutuals(networkId!),
    enabled: enabled && !!networkId,
    staleTime: 5 * MINUTE,
    retry: 2,
  });
  useEffect(() => {
    if (shops.error) toast.error(translate('pecflow.pec.form.shopsError', { message: errorText(shops.error) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shops.error]);
  // The API filters by network; the list is filtered again here (spec section 7).
  const mutualsOfNetwork = (mutuals.data ?? []).filter((m) => {
    const ref = m.network && typeof m.network === 'object' ? m.network.id : (m.networkId ?? idFromReference(m.network, 'networks'));
    return ref === networkId;
  });
  return { holdingId, networks: networks.data ?? [], shops: shops.data ?? [], mutuals: mutualsOfNetwork, mutualsLoading: mutuals.isFetching };
}

const activeOr = (options: OptionRecord[], keep: unknown) => options.filter((o) => o.status === undefined || o.status === 'Active' || o.id === keep);
const asId = (value: unknown) => (value === '' || value === undefined || value === null ? '' : Number(value));

interface Props {
  mode: 'create' | 'view';
  record?: PecDossierRecord;
  /** After a creation: the new file's id. */
  onCreated?: (id: number) => void;
  onCancel?: () => void;
}

export function PecForm({ mode, record, onCreated, onCancel }: Props) {
  const [editing, setEditing] = useState(false);
  const rights = usePecRights();
  if (mode === 'view' && record && !editing) {
    const busy = !!record.runInProgress;
    return <ReadOnlyFields record={record} onEdit={rights.edit ? () => setEditing(true) : undefined} editDisabled={busy} />;
  }
  return <EditableForm record={mode === 'view' ? record : undefined} onCreated={onCreated} onDone={mode === 'view' ? () => setEditing(false) : onCancel} />;
}

/** View mode: the fields as the file has them, read-only. */
function ReadOnlyFields({ record, onEdit, editDisabled }: { record: PecDossierRecord; onEdit?: () => void; editDisabled: boolean }) {
  const translate = useTranslate();
  const text = useDossierText();
  const field = (key: string, value: string, multiline = false) => (
    <TextField
      key={key}
      label={translate(`pecflow.pec.form.${key}`)}
      value={value}
      fullWidth
      size="small"
      multiline={multiline}
      minRows={multiline ? TEXTAREA_ROWS : undefined}
      slotProps={{ input: { readOnly: true }, inputLabel: { shrink: true } }}
      sx={{ gridColumn: multiline ? '1 / -1' : undefined }}
    />
  );
  return (
    <Box data-testid="pec-initial-info">
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
        {field('numeroDossier', text.value(record.numeroDossier))}
        {field('status', pecStatusLabel(record.status))}
        {field('network', text.network(record))}
        {field('shop', text.shop(record))}
        {field('mutual', text.mutual(record))}
        {field('totalTtc', formatEuros(record.totalTtc))}
        {field('numeroDossierAssure', text.value(record.numeroDossierAssure))}
        {field('numeroDevisAssure', text.value(record.numeroDevisAssure))}
        {field('createdAt', formatDate(record.createdAt))}
        {field('updatedAt', formatDate(record.updatedAt))}
        {field('commentaire', record.commentaire ?? '', true)}
      </Box>
      {onEdit && (
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 2 }}>
          <Button variant="outlined" onClick={onEdit} disabled={editDisabled}>
            {translate('pecflow.pec.form.edit')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}

function initialValues(record?: PecDossierRecord) {
  return {
    numeroDossier: record?.numeroDossier ?? '',
    networkId: record?.network?.id ?? record?.mutual?.networkId ?? '',
    shopId: record?.shop?.id ?? '',
    mutualId: record?.mutual?.id ?? '',
    numeroDossierAssure: record?.numeroDossierAssure ?? '',
    numeroDevisAssure: record?.numeroDevisAssure ?? '',
    commentaire: record?.commentaire ?? '',
    ...(record ? { status: record.status } : {}),
  };
}

/** API violation paths -> form fields. */
const FIELD_OF_PATH: Record<string, string> = { shop: 'shopId', mutual: 'mutualId', network: 'networkId' };

/** Creation (no record) or edit of a file. */
function EditableForm({ record, onCreated, onDone }: { record?: PecDossierRecord; onCreated?: (id: number) => void; onDone?: () => void }) {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const rights = usePecRights();
  const queryClient = useQueryClient();
  const creating = !record;
  const form = useZodForm(creating ? pecFormSchema : editSchema, initialValues(record));
  const networkId = form.values.networkId === '' ? undefined : Number(form.values.networkId);
  const options = useOptions(networkId, true);
  const [saving, setSaving] = useState(false);

  // The file's own network stays listed even when the list has not got it (a user with no organisation loads none).
  const listed = activeOr(options.networks, record?.network?.id);
  const networks = record?.network && !listed.some((n) => n.id === record.network!.id) ? [...listed, { ...record.network, name: record.network.name ?? '' }] : listed;
  const network = networks.find((n) => n.id === networkId) ?? (record?.network?.id === networkId ? record?.network : undefined);
  const missing = missingPrerequisites({
    numeroDossierAssure: String(form.values.numeroDossierAssure ?? ''),
    numeroDevisAssure: String(form.values.numeroDevisAssure ?? ''),
    mutual: form.values.mutualId === '' ? null : form.values.mutualId,
  });
  const statuses = useMemo(() => {
    if (!record || !isPecStatus(record.status)) return [];
    return [record.status, ...MANUAL_TRANSITIONS[record.status].filter((s) => s !== 'paid' || rights.pay)];
  }, [record, rights.pay]);

  const submit = async () => {
    form.submitAttempted();
    const data = form.data;
    if (!data) return;
    setSaving(true);
    const body = {
      numeroDossier: data.numeroDossier ?? undefined,
      shop: iriOf('shops', data.shopId),
      network: iriOf('networks', data.networkId),
      mutual: iriOf('mutuals', data.mutualId),
      numeroDossierAssure: data.numeroDossierAssure,
      numeroDevisAssure: data.numeroDevisAssure,
      commentaire: data.commentaire,
      status: creating ? 'draft' : String(form.values.status ?? record!.status),
    };
    try {
      const saved = creating ? await pecApi.create(body) : await pecApi.replace(Number(record!.originId ?? record!.id), { ...body, numeroDossier: data.numeroDossier });
      void queryClient.invalidateQueries({ queryKey: [PEC_RESOURCE] });
      void queryClient.invalidateQueries({ queryKey: PEC_STATS_QUERY_KEY });
      if (creating) {
        toast.success(translate('pecflow.pec.toast.created'), translate('pecflow.pec.toast.createdText', { numero: saved.numeroDossier }));
        onCreated?.(saved.id);
      } else {
        toast.success(translate('pecflow.pec.toast.updated'), translate('pecflow.pec.toast.updatedText', { numero: saved.numeroDossier }));
        onDone?.();
      }
    } catch (error) {
      const violations = (error as { body?: { violations?: { propertyPath: string; message: string }[] } }).body?.violations ?? [];
      form.setServerErrors(Object.fromEntries(violations.map((v) => [FIELD_OF_PATH[v.propertyPath] ?? v.propertyPath, v.message])));
      toast.error(translate(creating ? 'pecflow.pec.toast.createError' : 'pecflow.pec.toast.updateError'), errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const input = (key: string, { helperText, ...props }: Partial<ComponentProps<typeof TextField>> = {}) => (
    <TextField
      label={translate(`pecflow.pec.form.${key}`)}
      value={form.values[key] ?? ''}
      onChange={(event) => form.set(key, event.target.value)}
      onBlur={() => form.touch(key)}
      fullWidth
      size="small"
      {...props}
      error={!!form.errorOf(key)}
      helperText={form.errorOf(key) ?? helperText}
    />
  );
  const select = (key: string, choices: { id: number | string; name: string }[], props: Partial<ComponentProps<typeof TextField>> = {}, onPick?: (value: unknown) => void) =>
    input(key, {
      select: true,
      required: true,
      ...props,
      onChange: (event) => (onPick ? onPick(event.target.value) : form.set(key, asId(event.target.value))),
      children: [
        <MenuItem key="" value="">
          <em>{translate('pecflow.pec.form.choose')}</em>
        </MenuItem>,
        ...choices.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        )),
      ],
    });

  return (
    <FormBox onSubmit={() => void submit()} testId="pec-form">
      {creating && !options.holdingId && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="no-organisation-notice">
          {translate('pecflow.pec.form.noOrganisation')}
        </Alert>
      )}
      {creating && needsContractNumberNotice(network?.name) && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="contract-number-notice">
          {CONTRACT_NUMBER_NOTICE}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
        {input('numeroDossier', { helperText: creating ? translate('pecflow.pec.form.numeroDossierHelp') : undefined })}
        {record ? select('status', statuses.map((s) => ({ id: s, name: pecStatusLabel(s) })), {}, (value) => form.set('status', value)) : <Box />}
        {select('networkId', networks.map((n) => ({ id: n.id, name: n.name })), {}, (value) => form.set('networkId', asId(value), { mutualId: '' }))}
        {select('shopId', activeOr(options.shops, record?.shop?.id).map((s) => ({ id: s.id, name: s.name })))}
        {select(
          'mutualId',
          activeOr(options.mutuals, record?.mutual?.id).map((m) => ({ id: m.id, name: m.name })),
          { disabled: !networkId, helperText: !networkId ? translate('pecflow.pec.form.mutualWaits') : undefined },
        )}
        <Box />
        {input('numeroDossierAssure', { required: true })}
        {input('numeroDevisAssure', { required: true })}
        {input('commentaire', { multiline: true, minRows: TEXTAREA_ROWS, sx: { gridColumn: '1 / -1' } })}
      </Box>
      <MissingPrerequisites missing={missing} sx={{ mt: 2 }} />
      <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 2 }}>
        {onDone && (
          <Button onClick={onDone} disabled={saving}>
            {translate('pecflow.pec.form.cancel')}
          </Button>
        )}
        <Button type="submit" variant="contained" disabled={saving}>
          {translate(creating ? 'pecflow.pec.form.submitCreate' : 'pecflow.pec.form.submitEdit')}
        </Button>
      </Stack>
    </FormBox>
  );
}
