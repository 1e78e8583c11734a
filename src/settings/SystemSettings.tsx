// Paramètres > Système (spec sections 2, 4 and 6): the settings grouped by category with a category filter, four
// stats, "Lecture seule" / "Modifiable", an editor per value type, Enregistrer and Annuler once a value differs.
import { Alert, AlertTitle, Box, Button, Card, CardContent, Chip, MenuItem, Paper, Skeleton, Stack, Switch, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useDataProvider, useGetList, usePermissions, useTranslate, type RaRecord } from 'react-admin';
import type { AppDataProvider } from '../dataProvider';
import { extractErrorMessage } from '#domain/errors';
import { formatDateTime } from '#domain/format';
import { hasPermission } from '#domain/permissions';
import { SETTING_CATEGORIES, SETTING_CATEGORY_LABELS, settingValueError, type SettingCategory, type SettingRule } from '#domain/settings';
import { LoadError } from '../admin/LoadError';
import { useMutationToasts, WRITE_RETRY } from '../admin/mutations';

const RESOURCE = 'configs';

export function SystemSettings() {
  const translate = useTranslate();
  const { permissions = [] } = usePermissions<string[]>();
  const [category, setCategory] = useState<SettingCategory | ''>('');
  const canView = hasPermission(permissions, 'settings.system.view');
  const canEdit = hasPermission(permissions, 'settings.system.edit');
  const {
    data = [],
    isPending,
    error,
    refetch,
  } = useGetList(RESOURCE, { pagination: { page: 1, perPage: 5000 }, sort: { field: 'key', order: 'ASC' } }, { enabled: canView });

  const groups = useMemo(
    () =>
      SETTING_CATEGORIES.filter((c) => !category || c === category)
        .map((c) => ({ category: c, settings: data.filter((s) => s.category === c) }))
        .filter((g) => g.settings.length > 0),
    [data, category],
  );

  if (!canView) {
    return (
      <Alert severity="error">
        <AlertTitle>{translate('pecflow.settings.system.accessDenied')}</AlertTitle>
        {translate('pecflow.settings.system.accessDeniedText')}
      </Alert>
    );
  }

  const editable = data.filter((s) => s.isEditable).length;
  const stats = [
    { key: 'total', value: data.length },
    { key: 'editable', value: editable },
    { key: 'readOnly', value: data.length - editable },
    { key: 'categories', value: new Set(data.map((s) => s.category)).size },
  ];

  return (
    <Box data-testid="system-settings">
      <Typography variant="h6" component="h2" fontWeight={700} sx={{ mb: 2 }}>
        {translate('pecflow.settings.system.title')}
      </Typography>
      {canEdit && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>{translate('pecflow.settings.system.securityNote')}</AlertTitle>
          {translate('pecflow.settings.system.securityNoteText')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 1.5, mb: 2 }}>
        {stats.map((stat) => (
          <Paper key={stat.key} variant="outlined" sx={{ p: 1.5 }} data-testid={`stat-${stat.key}`}>
            <Typography variant="caption" color="text.secondary">
              {translate(`pecflow.settings.system.stats.${stat.key}`)}
            </Typography>
            <Typography variant="h5" fontWeight={700}>
              {isPending ? <Skeleton width={32} /> : stat.value}
            </Typography>
          </Paper>
        ))}
      </Box>
      <TextField
        select
        size="small"
        label={translate('pecflow.settings.system.category')}
        value={category}
        onChange={(event) => setCategory(event.target.value as SettingCategory | '')}
        sx={{ minWidth: 240, mb: 2 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{translate('pecflow.settings.system.allCategories')}</MenuItem>
        {SETTING_CATEGORIES.map((c) => (
          <MenuItem key={c} value={c}>
            {SETTING_CATEGORY_LABELS[c]}
          </MenuItem>
        ))}
      </TextField>

      {error ? (
        <LoadError
          title={translate('pecflow.settings.system.loadErrorTitle')}
          text={translate('pecflow.settings.system.loadErrorText')}
          onRetry={() => refetch()}
        />
      ) : isPending ? (
        <Skeleton height={240} />
      ) : groups.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography color="text.secondary">{translate('pecflow.settings.system.empty')}</Typography>
        </Paper>
      ) : (
        groups.map((group) => (
          <Box key={group.category} sx={{ mb: 3 }} data-testid={`category-${group.category}`}>
            <Typography variant="subtitle1" fontWeight={700} sx={{ mb: 1 }}>
              {SETTING_CATEGORY_LABELS[group.category]}
            </Typography>
            <Stack spacing={1.5}>
              {group.settings.map((setting) => (
                <SettingCard key={setting.id} setting={setting} canEdit={canEdit} />
              ))}
            </Stack>
          </Box>
        ))
      )}
    </Box>
  );
}

type ValueType = 'boolean' | 'number' | 'string' | 'array' | 'object';

/** What the editor holds: the value itself, or its JSON text for lists and objects. */
const draftOf = (type: ValueType, value: unknown) =>
  type === 'array' || type === 'object' ? JSON.stringify(value ?? (type === 'array' ? [] : {}), null, 2) : value;

/** The draft as a value, or the reason it is not one. */
function parseDraft(type: ValueType, draft: unknown, translate: (key: string) => string, rule?: SettingRule): { value?: unknown; error?: string } {
  let value = draft;
  if (type === 'array' || type === 'object') {
    try {
      value = JSON.parse(String(draft));
    } catch {
      return { error: translate('pecflow.settings.system.invalidJson') };
    }
  }
  if (type === 'number') value = draft === '' || draft === null ? NaN : Number(draft);
  const error = settingValueError(type, value, rule);
  return error ? { error } : { value };
}

function SettingCard({ setting, canEdit }: { setting: RaRecord; canEdit: boolean }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const toasts = useMutationToasts();
  const write = useMutation({ mutationFn: (value: unknown) => dataProvider.replace(RESOURCE, { id: setting.id, data: { value } }), ...WRITE_RETRY });
  const saving = write.isPending;
  const type = setting.valueType as ValueType;
  const original = draftOf(type, setting.value);
  const [draft, setDraft] = useState<unknown>(original);
  const [serverError, setServerError] = useState<string>();
  const editable = canEdit && setting.isEditable === true;
  const rule = (setting.rule ?? undefined) as SettingRule | undefined;
  const parsed = parseDraft(type, draft, translate, rule);
  const changed = parsed.error ? String(draft) !== String(original) : JSON.stringify(parsed.value) !== JSON.stringify(setting.value);
  const error = changed ? (parsed.error ?? serverError) : undefined;
  const label = String(setting.key);

  const save = async () => {
    setServerError(undefined);
    try {
      await write.mutateAsync(parsed.value);
    } catch (error) {
      toasts.failure(error, translate('pecflow.settings.system.saveErrorTitle'), translate('pecflow.settings.system.saveErrorText'));
      const violation = (error as { body?: { violations?: { message?: string }[] } }).body?.violations?.[0]?.message;
      setServerError(violation ?? extractErrorMessage(error));
      return;
    }
    await queryClient.invalidateQueries({ queryKey: [RESOURCE] });
    toasts.success(translate('pecflow.settings.system.saved'));
  };

  return (
    <Card variant="outlined" data-testid={`setting-${label}`}>
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" spacing={1} sx={{ mb: 1 }}>
          <Box sx={{ minWidth: 0 }}>
            <Typography fontWeight={600} sx={{ wordBreak: 'break-word' }}>
              {String(setting.description ?? label)}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="code">
              {label}
            </Typography>
          </Box>
          <Box>
            <Chip
              size="small"
              color={setting.isEditable ? 'success' : 'default'}
              label={translate(setting.isEditable ? 'pecflow.settings.system.editable' : 'pecflow.settings.system.readOnly')}
            />
          </Box>
        </Stack>
        <ValueEditor
          type={type}
          label={String(setting.description ?? label)}
          rule={rule}
          value={draft}
          onChange={setDraft}
          disabled={!editable || saving}
          error={error}
        />
        {editable && changed && (
          <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 1 }}>
            <Button
              onClick={() => {
                setDraft(original);
                setServerError(undefined);
              }}
              disabled={saving}
            >
              {translate('pecflow.settings.system.cancel')}
            </Button>
            <Button variant="contained" onClick={save} disabled={saving || !!parsed.error}>
              {translate('pecflow.settings.system.save')}
            </Button>
          </Stack>
        )}
        {setting.updatedAt && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
            {translate('pecflow.settings.system.updatedAt', { date: formatDateTime(setting.updatedAt as string) })}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

interface EditorProps {
  type: ValueType;
  label: string;
  rule?: SettingRule;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  error?: string;
}

/** A switch for booleans, a number field, a list of the accepted values, a text field, a JSON editor for lists and objects. */
function ValueEditor({ type, label, rule, value, onChange, disabled, error }: EditorProps) {
  const translate = useTranslate();
  if (type === 'boolean') {
    return (
      <Stack direction="row" alignItems="center" spacing={1}>
        <Switch
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          disabled={disabled}
          slotProps={{ input: { 'aria-label': label } }}
        />
        <Typography variant="body2">{translate(value === true ? 'pecflow.settings.system.yes' : 'pecflow.settings.system.no')}</Typography>
        {error && (
          <Typography variant="caption" color="error">
            {error}
          </Typography>
        )}
      </Stack>
    );
  }
  if (type === 'string' && rule?.choices) {
    return (
      <TextField
        select
        fullWidth
        size="small"
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        error={!!error}
        helperText={error}
        slotProps={{ htmlInput: { 'aria-label': label } }}
      >
        {rule.choices.map((choice) => (
          <MenuItem key={choice} value={choice}>
            {choice}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  const json = type === 'array' || type === 'object';
  const bounds = type === 'number' ? { min: rule?.min, max: rule?.max, step: rule?.integer ? 1 : 'any' } : {};
  return (
    <TextField
      fullWidth
      size="small"
      type={type === 'number' ? 'number' : 'text'}
      multiline={json}
      minRows={json ? 4 : undefined}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      error={!!error}
      helperText={error}
      slotProps={{ htmlInput: { 'aria-label': label, spellCheck: false, ...bounds, style: json ? { fontFamily: 'monospace' } : undefined } }}
    />
  );
}
