// "Ajouter des informations": the robot's results entered by hand (spec sections 2, 5 and 7), as the callbacks the
// robot would post: scraping (patient and devices, or the optical equipment of an optician's file), dpec (agreement and amounts), billing. Only for a file that has
// an externalId ("Dossier non initialisé" otherwise). Prices accept "1 450,50", at most 2 decimals; messages one per
// line; checked on every change by the same schemas as the server (the one form system, src/admin/AdminForm.tsx); submit
// disabled while invalid. Sent with useMutation; the file, list and dashboard are refreshed 200 ms later.
import { Alert, AlertTitle, Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useFormState } from 'react-hook-form';
import { BooleanInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { AdminForm } from '../admin/AdminForm';
import { useConfirmDiscard } from '../admin/unsavedChanges';
import type { PecDossierRecord } from '../dataProvider/pec';
import { TEXTAREA_ROWS } from '#domain/limits';
import { CALLBACK_MESSAGES, CALLBACK_TYPES, type CallbackType } from '#domain/pec';
import { CALLBACK_SCHEMAS } from '#domain/pecSchemas';
import type { FileKind } from '#domain/fileKinds';
import { DateInput } from './DateInput';
import { SCRAPING_TAB_LABELS } from './fileKindLabels';
import { OpticalEquipmentFields, opticalFormValues } from './OpticalEquipmentFields';
import { statusOf, usePecMutation, usePecRights } from './shared';

type Kind = 'text' | 'price' | 'date' | 'yesno' | 'textarea';
interface FieldDef {
  key: string;
  kind: Kind;
  /** Key of the label under pecflow.pec.manual.fields (the key itself when absent). */
  label?: string;
  /** The value the form starts with (the spec's defaults: 100 % Santé "oui", first fitting "non"). */
  initial?: string;
}
interface Group {
  title?: string;
  fields: FieldDef[];
}

const device = (ear: 'droit' | 'gauche'): FieldDef[] => [
  { key: `appareil.${ear}.fabricant`, kind: 'text', label: 'fabricant' },
  { key: `appareil.${ear}.marque`, kind: 'text', label: 'marque' },
  { key: `appareil.${ear}.modele`, kind: 'text', label: 'modele' },
  { key: `appareil.${ear}.total_ttc`, kind: 'price', label: `total_ttc_${ear}` },
  { key: `appareil.${ear}.code_lpp`, kind: 'text', label: 'code_lpp' },
  { key: `appareil.${ear}.forme`, kind: 'text', label: 'forme' },
  { key: `appareil.${ear}.premier_appareillage`, kind: 'yesno', label: 'premier_appareillage', initial: 'non' },
];

const FORMS: Record<CallbackType, Group[]> = {
  scraping: [
    { fields: [{ key: 'appareil.offre_100_sante', kind: 'yesno', label: 'offre_100_sante', initial: 'oui' }] },
    { title: 'droit', fields: device('droit') },
    { title: 'gauche', fields: device('gauche') },
  ],
  dpec: [
    {
      fields: [
        { key: 'num_dossier', kind: 'text' },
        { key: 'num_pec', kind: 'text' },
        { key: 'date_creation', kind: 'date' },
        { key: 'date_peremption', kind: 'date' },
      ],
    },
    {
      title: 'amounts',
      fields: [
        { key: 'prix_frais_reels', kind: 'price' },
        { key: 'base_ss', kind: 'price' },
        { key: 'part_ss', kind: 'price' },
        { key: 'part_complementaire', kind: 'price' },
        { key: 'reste_charge', kind: 'price' },
      ],
    },
    { fields: [{ key: 'detail_refus', kind: 'textarea' }] },
  ],
  billing: [{ fields: [{ key: 'date_facturation_effective', kind: 'date' }] }],
};

/** The groups of a result's form: an optician's or a generic file's scraping result has no devices per ear. */
const formGroups = (type: CallbackType, kind: FileKind): Group[] => (type === 'scraping' && kind !== 'audio' ? [] : FORMS[type]);

/** The form's first values, nested as the callback body ("appareil.droit.marque" is appareil -> droit -> marque). */
function emptyValues(type: CallbackType, kind: FileKind, externalId: string) {
  const values: Record<string, unknown> = { id_pecflow: externalId, success: true, messages: '' };
  if (type === 'scraping' && kind === 'optical') values.equipement_optique = opticalFormValues();
  for (const { key, initial } of formGroups(type, kind).flatMap((g) => g.fields)) {
    const path = key.split('.');
    let node = values;
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[path[path.length - 1]!] = initial ?? '';
  }
  return values;
}

export function ManualResults({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  const [type, setType] = useState<CallbackType>('scraping');
  // Each type's form is its own: another type drops what was typed, asked first (src/admin/unsavedChanges.ts).
  const confirmDiscard = useConfirmDiscard();
  const kind = record.fileKind ?? 'audio';
  if (!record.externalId) {
    return (
      <Alert severity="info" data-testid="not-initialised">
        <AlertTitle>{translate('pecflow.pec.manual.notInitialised')}</AlertTitle>
        {translate('pecflow.pec.manual.notInitialisedText')}
      </Alert>
    );
  }
  // The server takes no result on an archived file (issue 25).
  if (record.archived) {
    return (
      <Alert severity="info" data-testid="manual-archived">
        {translate('pecflow.pec.manual.archived')}
      </Alert>
    );
  }
  return (
    <Box>
      <Tabs value={type} onChange={(_event, value: CallbackType) => confirmDiscard(() => setType(value))} sx={{ mb: 2 }}>
        {CALLBACK_TYPES.map((t) => (
          <Tab key={t} value={t} label={translate(t === 'scraping' ? SCRAPING_TAB_LABELS[kind] : `pecflow.pec.manual.types.${t}`)} />
        ))}
      </Tabs>
      <CallbackForm key={type} type={type} kind={kind} externalId={record.externalId} />
    </Box>
  );
}

function CallbackForm({ type, kind, externalId }: { type: CallbackType; kind: FileKind; externalId: string }) {
  const { translate, dataProvider, refresh, success, failure } = usePecMutation();
  const rights = usePecRights();
  // After a save the form starts again from its first values.
  const [round, setRound] = useState(0);
  const initial = useMemo(() => emptyValues(type, kind, externalId), [type, kind, externalId]);
  const typeLabel = translate(type === 'scraping' ? SCRAPING_TAB_LABELS[kind] : `pecflow.pec.manual.types.${type}`);
  const send = useMutation({
    mutationFn: (data: Record<string, unknown>) => dataProvider.pecCallback({ type, data }),
    onSuccess: (saved) => {
      success(
        translate('pecflow.pec.manual.saved', { type: typeLabel }),
        translate('pecflow.pec.manual.savedText', { id: saved.executionId, ms: Math.round(saved.processing_time * 1000) }),
      );
      setRound((r) => r + 1);
    },
    onError: (error) => {
      const status = statusOf(error);
      const title =
        status === 403 ? CALLBACK_MESSAGES.forbidden : status === 404 ? CALLBACK_MESSAGES.notFound : translate('pecflow.pec.manual.error', { type });
      failure(title, error);
    },
    onSettled: () => refresh.soon(),
  });
  const disabled = !rights.run || send.isPending;

  const field = ({ key, kind, label }: FieldDef) => {
    const common = {
      source: key,
      label: translate(`pecflow.pec.manual.fields.${label ?? key}`),
      disabled,
      fullWidth: true,
      size: 'small' as const,
      margin: 'none' as const,
    };
    const attributes = { 'data-field': key };
    if (kind === 'yesno') {
      const choices = [
        { id: 'oui', name: translate('pecflow.pec.results.yes') },
        { id: 'non', name: translate('pecflow.pec.results.no') },
      ];
      return <SelectInput key={key} {...common} choices={choices} emptyText="pecflow.pec.manual.unknown" inputProps={attributes} />;
    }
    if (kind === 'date') return <DateInput key={key} source={key} label={common.label} disabled={disabled} inputProps={attributes} />;
    if (kind === 'textarea') return <TextInput key={key} {...common} multiline minRows={2} sx={{ gridColumn: '1 / -1' }} inputProps={attributes} />;
    return (
      <TextInput
        key={key}
        {...common}
        placeholder={kind === 'price' ? '1 450,50' : undefined}
        inputProps={{ ...attributes, ...(kind === 'price' ? { inputMode: 'decimal' } : {}) }}
      />
    );
  };

  return (
    <AdminForm
      key={round}
      record={initial}
      schema={CALLBACK_SCHEMAS[type]}
      invalidToast
      onSave={(values) => send.mutateAsync(CALLBACK_SCHEMAS[type].parse(values))}
    >
      <Box data-testid={`callback-form-${type}`}>
        {!rights.run && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('pecflow.pec.manual.noRight')}
          </Alert>
        )}
        <BooleanInput source="success" label={translate('pecflow.pec.manual.success')} disabled={disabled} helperText={false} sx={{ mb: 1 }} />
        <Stack spacing={2}>
          {type === 'scraping' && kind === 'optical' && <OpticalEquipmentFields disabled={disabled} />}
          {formGroups(type, kind).map((group, index) => (
            <Box key={index}>
              {group.title && (
                <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
                  {translate(`pecflow.pec.manual.groups.${group.title}`)}
                </Typography>
              )}
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>{group.fields.map(field)}</Box>
            </Box>
          ))}
          <TextInput
            source="messages"
            label={translate('pecflow.pec.manual.messages')}
            helperText={translate('pecflow.pec.manual.messagesHelp')}
            multiline
            minRows={TEXTAREA_ROWS}
            disabled={disabled}
            fullWidth
            margin="none"
          />
        </Stack>
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 2 }}>
          <SubmitButton disabled={disabled} />
        </Stack>
      </Box>
    </AdminForm>
  );
}

/** "Enregistrer le résultat", disabled while the form is invalid. */
function SubmitButton({ disabled }: { disabled: boolean }) {
  const translate = useTranslate();
  const { isValid } = useFormState();
  return (
    <Button type="submit" variant="contained" disabled={disabled || !isValid} data-testid="callback-submit">
      {translate('pecflow.pec.manual.submit')}
    </Button>
  );
}
