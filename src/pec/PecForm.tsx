// The file's form (spec sections 2, 3 and 5): created in the drawer ("Informations PEC"), read-only in view mode
// ("Informations initiales"), editable there with pec.edit. The one form system (src/admin/AdminForm.tsx: react-admin's
// <Form>, the shared zod schema checked on every change), as the settings forms; saved with useCreate / useUpdate. The reference lists are react-admin lists
// (useGetList): the mutual select waits for a network, is reset when the network changes and offers that network's
// mutuals only; the Itelis / Santéclair notice; "Prérequis manquants".
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { AutocompleteInput, ReferenceInput, SelectInput, TextInput, useCreate, useGetList, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { z } from 'zod';
import { AdminForm, CancelButton } from '../admin/AdminForm';
import { violationsOf } from '../admin/violations';
import { readAuthStore } from '../session';
import { PEC_RESOURCE, pecIri, pecNumericId, type PecBody, type PecDossierRecord, type PrescriberRef } from '../dataProvider/pec';
import { fileKindOf } from '#domain/fileKinds';
import { formatDate, formatEuros } from '#domain/format';
import { idFromReference, iriOf } from '#domain/iri';
import { TEXTAREA_ROWS } from '#domain/limits';
import {
  CONTRACT_NUMBER_NOTICE,
  isDpecGranted,
  isPecStatus,
  MANUAL_TRANSITIONS,
  missingPrerequisites,
  needsContractNumberNotice,
  pecStatusLabel,
} from '#domain/pec';
import { pecFormSchema } from '#domain/pecSchemas';
import { requiredIn } from '#domain/validation';
import { useToast } from '../layout/Toasts';
import { DateInput } from './DateInput';
import { MissingPrerequisites, useDossierText, useErrorText, usePecMutation, usePecRights } from './shared';

const MINUTE = 60_000;
const editSchema = pecFormSchema.extend({ status: z.string().optional() });

/** A network, centre or mutual as the Hydra provider reads it (id: the IRI, originId: the number). */
type ReferenceRecord = RaRecord & {
  originId?: string;
  name: string;
  status?: string;
  network?: unknown;
  networkId?: number | null;
  specialite?: string | null;
};
interface Choice {
  id: number;
  name: string;
}

/** Every record of a reference list (pagination=false), by name. */
const WHOLE_LIST = { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' as const } };

/** Active records (and the file's own, even inactive) as select choices by their numeric id. */
function choicesOf(records: ReferenceRecord[] | undefined, keep?: number): Choice[] {
  return (records ?? [])
    .map((r) => ({ id: pecNumericId(r)!, name: r.name, status: r.status }))
    .filter((c) => c.status === undefined || c.status === 'Active' || c.id === keep)
    .map(({ id, name }) => ({ id, name }));
}

/** The reference lists of the form, with the spec's cache times (section 9). */
function useOptions(networkId: number | undefined, record: PecDossierRecord | undefined) {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const holdingId = readAuthStore().user?.holdingId ?? undefined;
  // The networks are read only for a user of an organisation; a 403 gives an empty list (spec section 6).
  const networks = useGetList<ReferenceRecord>(
    'networks',
    { ...WHOLE_LIST, filter: { holdingId, pagination: false } },
    { enabled: !!holdingId, staleTime: 10 * MINUTE, gcTime: 10 * MINUTE },
  );
  const shops = useGetList<ReferenceRecord>(
    'shops',
    { ...WHOLE_LIST, filter: { pagination: false } },
    { staleTime: 10 * MINUTE, gcTime: 10 * MINUTE, retry: 2 },
  );
  const mutuals = useGetList<ReferenceRecord>(
    'mutuals',
    { ...WHOLE_LIST, filter: { 'network.id': networkId, pagination: false } },
    { enabled: !!networkId, staleTime: 5 * MINUTE, retry: 2 },
  );
  // Once per error: the toast and the texts are read, not followed.
  const announceShopsError = useEffectEvent((failure: unknown) => toast.error(translate('pecflow.pec.form.shopsError', { message: errorText(failure) })));
  useEffect(() => {
    if (shops.error) announceShopsError(shops.error);
  }, [shops.error]);

  // The file's own network stays listed even when the list has not got it (a user with no organisation loads none).
  const networkChoices = choicesOf(networks.data, record?.network?.id);
  if (record?.network && !networkChoices.some((n) => n.id === record.network!.id))
    networkChoices.push({ id: record.network.id, name: record.network.name ?? '' });
  // The API filters by network; the list is filtered again here (spec section 7).
  const ofNetwork = (mutuals.data ?? []).filter((m) => {
    const ref = m.network && typeof m.network === 'object' ? pecNumericId(m.network as RaRecord) : (m.networkId ?? idFromReference(m.network, 'networks'));
    return ref === networkId;
  });
  return {
    holdingId,
    networks: networkChoices,
    shops: choicesOf(shops.data, record?.shop?.id),
    /** The chosen centre's specialty: the file's kind, which sets its prerequisites. */
    specialiteOf: (shopId: number | undefined) =>
      (shops.data ?? []).find((s) => pecNumericId(s) === shopId)?.specialite ?? (record?.shop?.id === shopId ? record?.shop?.specialite : undefined),
    mutuals: networkId ? choicesOf(ofNetwork, record?.mutual?.id) : [],
  };
}

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
    // An archived file is not changed until it is restored (issue 25).
    return <ReadOnlyFields record={record} onEdit={rights.edit && !record.archived ? () => setEditing(true) : undefined} editDisabled={busy} />;
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
        {field('prescriber', prescriberText(record.prescriber) ?? translate('pecflow.pec.form.noPrescriber'))}
        {field('datePrescription', formatDate(record.datePrescription))}
        {field('dateNaissanceBeneficiaire', formatDate(record.dateNaissanceBeneficiaire))}
        {field('nomAssure', text.value(record.nomAssure))}
        {field('prenomAssure', text.value(record.prenomAssure))}
        {field('numeroAdherent', text.value(record.numeroAdherent))}
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

/** "Dr Claire Lefèvre — ORL — RPPS 10003456781". */
function prescriberText(prescriber: PecDossierRecord['prescriber']): string | undefined {
  if (!prescriber || typeof prescriber !== 'object') return undefined;
  const name = [prescriber.civility, prescriber.firstName, prescriber.lastName].filter(Boolean).join(' ');
  return [name, prescriber.specialty, prescriber.rpps && `RPPS ${prescriber.rpps}`].filter(Boolean).join(' — ');
}

const prescriberIri = (prescriber: PecDossierRecord['prescriber']) => (typeof prescriber === 'string' ? prescriber : (prescriber?.['@id'] ?? ''));

function initialValues(record?: PecDossierRecord) {
  return {
    numeroDossier: record?.numeroDossier ?? '',
    networkId: record?.network?.id ?? record?.mutual?.networkId ?? '',
    shopId: record?.shop?.id ?? '',
    mutualId: record?.mutual?.id ?? '',
    numeroDossierAssure: record?.numeroDossierAssure ?? '',
    numeroDevisAssure: record?.numeroDevisAssure ?? '',
    commentaire: record?.commentaire ?? '',
    prescriber: prescriberIri(record?.prescriber),
    datePrescription: record?.datePrescription ?? '',
    dateNaissanceBeneficiaire: record?.dateNaissanceBeneficiaire ?? '',
    nomAssure: record?.nomAssure ?? '',
    prenomAssure: record?.prenomAssure ?? '',
    numeroAdherent: record?.numeroAdherent ?? '',
    ...(record ? { status: record.status } : {}),
  };
}

/** API violation paths -> form fields. */
const FIELD_OF_PATH: Record<string, string> = { shop: 'shopId', mutual: 'mutualId', network: 'networkId' };

/** A refused save whose violations name the form's fields (shopId...), not the API's (shop...). */
function onFormFields(error: unknown): unknown {
  const violations = violationsOf(error);
  if (!violations) return error;
  return { body: { violations: Object.entries(violations).map(([path, message]) => ({ propertyPath: FIELD_OF_PATH[path] ?? path, message })) } };
}

/** Creation (no record) or edit of a file. */
function EditableForm({ record, onCreated, onDone }: { record?: PecDossierRecord; onCreated?: (id: number) => void; onDone?: () => void }) {
  const { translate, refresh, success, failure } = usePecMutation();
  const [create] = useCreate();
  const [update] = useUpdate();
  const creating = !record;
  const initial = useMemo(() => initialValues(record), [record]);
  const schema = creating ? pecFormSchema : editSchema;

  const save = async (values: Record<string, unknown>) => {
    // The form keeps what was typed; the body is the schema's output (trimmed texts, numeric ids).
    const data = editSchema.parse(values);
    const body: PecBody = {
      numeroDossier: data.numeroDossier ?? undefined,
      shop: iriOf('shops', data.shopId),
      network: iriOf('networks', data.networkId),
      mutual: iriOf('mutuals', data.mutualId),
      numeroDossierAssure: data.numeroDossierAssure,
      numeroDevisAssure: data.numeroDevisAssure,
      commentaire: data.commentaire,
      prescriber: data.prescriber ? iriOf('prescribers', data.prescriber) : null,
      datePrescription: data.datePrescription ?? null,
      dateNaissanceBeneficiaire: data.dateNaissanceBeneficiaire ?? null,
      nomAssure: data.nomAssure ?? null,
      prenomAssure: data.prenomAssure ?? null,
      numeroAdherent: data.numeroAdherent ?? null,
      status: creating ? 'draft' : String(data.status ?? record!.status),
    };
    try {
      const saved = (
        creating
          ? await create(PEC_RESOURCE, { data: body }, { returnPromise: true })
          : await update(
              PEC_RESOURCE,
              { id: pecIri(pecNumericId(record)!), data: { ...body, numeroDossier: data.numeroDossier }, previousData: record },
              { returnPromise: true },
            )
      ) as PecDossierRecord;
      void refresh.now();
      if (creating) {
        success(translate('pecflow.pec.toast.created'), translate('pecflow.pec.toast.createdText', { numero: saved.numeroDossier }));
        onCreated?.(pecNumericId(saved)!);
      } else {
        success(translate('pecflow.pec.toast.updated'), translate('pecflow.pec.toast.updatedText', { numero: saved.numeroDossier }));
        onDone?.();
      }
    } catch (error) {
      failure(translate(creating ? 'pecflow.pec.toast.createError' : 'pecflow.pec.toast.updateError'), error);
      throw onFormFields(error);
    }
  };

  return (
    <AdminForm record={initial} schema={schema} onSave={save} invalidToast>
      <FormFields record={record} onCancel={onDone} />
    </AdminForm>
  );
}

function FormFields({ record, onCancel }: { record?: PecDossierRecord; onCancel?: () => void }) {
  const translate = useTranslate();
  const rights = usePecRights();
  const creating = !record;
  const { setValue, getFieldState, formState } = useFormContext();
  const { isSubmitting } = useFormState();
  const [networkValue, mutualId, numeroDossierAssure, numeroDevisAssure, shopId, prescriber, datePrescription] = useWatch({
    name: ['networkId', 'mutualId', 'numeroDossierAssure', 'numeroDevisAssure', 'shopId', 'prescriber', 'datePrescription'],
  });
  const networkId = networkValue === '' || networkValue === undefined || networkValue === null ? undefined : Number(networkValue);
  const options = useOptions(networkId, record);
  // Another network (picked or cleared): the chosen mutual no longer fits (spec section 4).
  // Only a change of network clears it: the form's state is read when it does, not followed.
  const previousNetwork = useRef(networkId);
  const clearMutual = useEffectEvent(() =>
    setValue('mutualId', '', { shouldDirty: true, shouldValidate: formState.isSubmitted || getFieldState('mutualId').isTouched }),
  );
  useEffect(() => {
    if (previousNetwork.current === networkId) return;
    previousNetwork.current = networkId;
    clearMutual();
  }, [networkId]);
  const network = options.networks.find((n) => n.id === networkId);
  const kind = fileKindOf(options.specialiteOf(shopId === '' || shopId === undefined ? undefined : Number(shopId)));
  const missing = missingPrerequisites(
    {
      numeroDossierAssure,
      numeroDevisAssure,
      mutual: mutualId === '' ? null : mutualId,
      prescriber: prescriber || null,
      datePrescription: datePrescription || null,
    },
    kind,
  );
  const statuses = useMemo(() => {
    if (!record || !isPecStatus(record.status)) return [];
    return [record.status, ...MANUAL_TRANSITIONS[record.status].filter((s) => s !== 'paid' || rights.pay)].map((s) => ({ id: s, name: pecStatusLabel(s) }));
  }, [record, rights.pay]);
  const label = (key: string) => translate(`pecflow.pec.form.${key}`);
  const common = { fullWidth: true, size: 'small' as const, margin: 'none' as const };
  // Marked « * » where the form's rule asks for a value (the same rule refuses the form without it).
  const required = (field: keyof typeof pecFormSchema.shape) => requiredIn(pecFormSchema, field);
  const select = { ...common, emptyText: 'pecflow.pec.form.choose', translateChoice: false };

  return (
    <Box data-testid="pec-form">
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
        <TextInput source="numeroDossier" label={label('numeroDossier')} {...common} helperText={creating ? label('numeroDossierHelp') : undefined} />
        {record ? <SelectInput source="status" label={label('status')} choices={statuses} {...select} /> : <Box />}
        <SelectInput source="networkId" label={label('networkId')} choices={options.networks} {...select} required={required('networkId')} />
        <SelectInput source="shopId" label={label('shopId')} choices={options.shops} {...select} required={required('shopId')} />
        <SelectInput
          source="mutualId"
          label={label('mutualId')}
          choices={options.mutuals}
          {...select}
          required={required('mutualId')}
          disabled={!networkId}
          helperText={!networkId ? label('mutualWaits') : undefined}
        />
        <Box />
        <TextInput source="numeroDossierAssure" label={label('numeroDossierAssure')} {...common} required={required('numeroDossierAssure')} />
        <TextInput source="numeroDevisAssure" label={label('numeroDevisAssure')} {...common} required={required('numeroDevisAssure')} />
        <ReferenceInput source="prescriber" reference="prescribers" sort={{ field: 'lastName', order: 'ASC' }} filter={{ status: 'Active' }}>
          <AutocompleteInput
            label={label('prescriber')}
            optionText={(p: PrescriberRef) => prescriberText(p) ?? ''}
            filterToQuery={(search: string) => ({ search })}
            emptyText="pecflow.pec.form.noPrescriber"
            {...common}
          />
        </ReferenceInput>
        <DateInput source="datePrescription" label={label('datePrescription')} inputProps={{ 'data-field': 'datePrescription' }} />
        <DateInput source="dateNaissanceBeneficiaire" label={label('dateNaissanceBeneficiaire')} inputProps={{ 'data-field': 'dateNaissanceBeneficiaire' }} />
        <Box />
        <TextInput source="nomAssure" label={label('nomAssure')} {...common} />
        <TextInput source="prenomAssure" label={label('prenomAssure')} {...common} />
        <TextInput source="numeroAdherent" label={label('numeroAdherent')} {...common} />
        <Box />
        <TextInput source="commentaire" label={label('commentaire')} {...common} multiline minRows={TEXTAREA_ROWS} sx={{ gridColumn: '1 / -1' }} />
      </Box>
      {!(record && isDpecGranted(record)) && <MissingPrerequisites missing={missing} sx={{ mt: 2 }} />}
      <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 2 }}>
        {onCancel && <CancelButton label={translate('pecflow.pec.form.cancel')} onCancel={onCancel} />}
        <Button type="submit" variant="contained" disabled={isSubmitting}>
          {translate(creating ? 'pecflow.pec.form.submitCreate' : 'pecflow.pec.form.submitEdit')}
        </Button>
      </Stack>
    </Box>
  );
}
