// "Ajouter des informations": the robot's results entered by hand (spec sections 2, 5 and 7), as the callbacks the
// robot would post: scraping (patient and devices), dpec (agreement and amounts), billing. Only for a file that has
// an externalId ("Dossier non initialisé" otherwise). Prices accept "1 450,50", at most 2 decimals; messages one per
// line; checked on every change by the same schemas as the server; submit disabled while invalid.
import { Alert, AlertTitle, Box, Button, FormControlLabel, MenuItem, Stack, Switch, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useState, type ChangeEvent } from 'react';
import { useTranslate } from 'react-admin';
import { pecApi, type PecDossierRecord } from '../dataProvider/pec';
import { TEXTAREA_ROWS } from '../domain/limits';
import { CALLBACK_MESSAGES, CALLBACK_SCHEMAS, CALLBACK_TYPES, type CallbackType } from '../domain/pec';
import { useToast } from '../layout/Toasts';
import { useRefreshSoon } from './ActionsTab';
import { FormBox, nest, statusOf, useErrorText, usePecRights, useZodForm } from './shared';

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

const emptyValues = (type: CallbackType) => ({
  success: true,
  messages: '',
  ...Object.fromEntries(FORMS[type].flatMap((g) => g.fields.map((f) => [f.key, f.initial ?? '']))),
});

export function ManualResults({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  const [type, setType] = useState<CallbackType>('scraping');
  if (!record.externalId) {
    return (
      <Alert severity="info" data-testid="not-initialised">
        <AlertTitle>{translate('pecflow.pec.manual.notInitialised')}</AlertTitle>
        {translate('pecflow.pec.manual.notInitialisedText')}
      </Alert>
    );
  }
  return (
    <Box>
      <Tabs value={type} onChange={(_event, value: CallbackType) => setType(value)} sx={{ mb: 2 }}>
        {CALLBACK_TYPES.map((t) => (
          <Tab key={t} value={t} label={translate(`pecflow.pec.manual.types.${t}`)} />
        ))}
      </Tabs>
      <CallbackForm key={type} type={type} externalId={record.externalId} />
    </Box>
  );
}

function CallbackForm({ type, externalId }: { type: CallbackType; externalId: string }) {
  const translate = useTranslate();
  const toast = useToast();
  const errorText = useErrorText();
  const rights = usePecRights();
  const refreshSoon = useRefreshSoon();
  const [saving, setSaving] = useState(false);
  const form = useZodForm(CALLBACK_SCHEMAS[type], emptyValues(type), (values) => nest({ ...values, id_pecflow: externalId }));
  const disabled = !rights.run || saving;
  const typeLabel = translate(`pecflow.pec.manual.types.${type}`);

  const submit = async () => {
    if (!form.data) return;
    setSaving(true);
    try {
      const saved = await pecApi.sendCallback(type, form.data as Record<string, unknown>);
      toast.success(
        translate('pecflow.pec.manual.saved', { type: typeLabel }),
        translate('pecflow.pec.manual.savedText', { id: saved.executionId, ms: Math.round(saved.processing_time * 1000) }),
      );
      form.reset(emptyValues(type));
      refreshSoon();
    } catch (error) {
      const status = statusOf(error);
      const title = status === 403 ? CALLBACK_MESSAGES.forbidden : status === 404 ? CALLBACK_MESSAGES.notFound : translate('pecflow.pec.manual.error', { type });
      toast.error(title, errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const field = ({ key, kind, label }: FieldDef) => {
    const common = {
      label: translate(`pecflow.pec.manual.fields.${label ?? key}`),
      value: String(form.values[key] ?? ''),
      onChange: (event: ChangeEvent<HTMLInputElement>) => form.set(key, event.target.value),
      onBlur: () => form.touch(key),
      error: !!form.errorOf(key),
      helperText: form.errorOf(key),
      size: 'small' as const,
      fullWidth: true,
      disabled,
      slotProps: { inputLabel: { shrink: true }, htmlInput: { 'data-field': key, ...(kind === 'price' ? { inputMode: 'decimal' as const } : {}) } },
    };
    if (kind === 'yesno') {
      return (
        <TextField key={key} select {...common}>
          <MenuItem value="">
            <em>{translate('pecflow.pec.manual.unknown')}</em>
          </MenuItem>
          <MenuItem value="oui">{translate('pecflow.pec.results.yes')}</MenuItem>
          <MenuItem value="non">{translate('pecflow.pec.results.no')}</MenuItem>
        </TextField>
      );
    }
    if (kind === 'textarea') return <TextField key={key} multiline minRows={2} {...common} sx={{ gridColumn: '1 / -1' }} />;
    return <TextField key={key} type={kind === 'date' ? 'date' : 'text'} placeholder={kind === 'price' ? '1 450,50' : undefined} {...common} />;
  };

  return (
    <FormBox onSubmit={() => void submit()} testId={`callback-form-${type}`}>
      {!rights.run && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('pecflow.pec.manual.noRight')}
        </Alert>
      )}
      <FormControlLabel
        control={<Switch checked={form.values.success === true} onChange={(event) => form.set('success', event.target.checked)} disabled={disabled} />}
        label={translate('pecflow.pec.manual.success')}
        sx={{ mb: 1 }}
      />
      <Stack spacing={2}>
        {FORMS[type].map((group, index) => (
          <Box key={index}>
            {group.title && (
              <Typography variant="body2" fontWeight={700} sx={{ mb: 1 }}>
                {translate(`pecflow.pec.manual.groups.${group.title}`)}
              </Typography>
            )}
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 1.5 }}>{group.fields.map(field)}</Box>
          </Box>
        ))}
        <TextField
          label={translate('pecflow.pec.manual.messages')}
          helperText={form.errorOf('messages') ?? translate('pecflow.pec.manual.messagesHelp')}
          error={!!form.errorOf('messages')}
          multiline
          minRows={TEXTAREA_ROWS}
          value={String(form.values.messages ?? '')}
          onChange={(event) => form.set('messages', event.target.value)}
          disabled={disabled}
          fullWidth
        />
      </Stack>
      <Stack direction="row" justifyContent="flex-end" sx={{ mt: 2 }}>
        <Button type="submit" variant="contained" disabled={disabled || !form.valid} data-testid="callback-submit">
          {translate('pecflow.pec.manual.submit')}
        </Button>
      </Stack>
    </FormBox>
  );
}
