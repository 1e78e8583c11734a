// The permissions of a role, grouped by module with the catalogue's labels and levels (GET /api/permissions).
// A wildcard (settings.shops.*, admin.*) ticks every key it covers; unticking one of them spells the wildcard out.
import { Accordion, AccordionDetails, AccordionSummary, Alert, Checkbox, Chip, FormControlLabel, Skeleton, Stack, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useInput, usePermissions, useTranslate } from 'react-admin';
import { LEVEL_COLORS } from '../../account/levels';
import type { AppDataProvider } from '../../dataProvider';
import { grants, hasPermission, permissionsBeyond, type PermissionDefinition, type PermissionModule } from '#domain/permissions';
import type { InputComponent } from '../types';

/** The role's keys after ticking or unticking `key`, wildcards expanded into the catalogue keys they cover. */
export function togglePermission(current: readonly string[], key: string, on: boolean, catalogue: readonly PermissionDefinition[]): string[] {
  if (on) return hasPermission(current, key) ? [...current] : [...current, key];
  const next: string[] = [];
  for (const held of current) {
    if (held === key) continue;
    if (held.endsWith('.*') && grants(held, key)) {
      // Spell the wildcard out, without the key being removed.
      for (const p of catalogue) if (p.key !== key && !p.key.endsWith('.*') && grants(held, p.key) && !next.includes(p.key)) next.push(p.key);
      continue;
    }
    if (!next.includes(held)) next.push(held);
  }
  return next;
}

export const PermissionsInput: InputComponent = ({ source, label, readOnly }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { permissions: held = [] } = usePermissions<string[]>();
  const { field, fieldState } = useInput({ source, defaultValue: [] });
  const { data: catalogue, error } = useQuery({
    queryKey: ['pecflow', 'permissionCatalogue'],
    queryFn: () => dataProvider.permissionCatalogue(),
    staleTime: Infinity,
  });
  const value: string[] = Array.isArray(field.value) ? field.value : [];

  if (error) return <Alert severity="error">{translate('pecflow.settings.roles.catalogueError')}</Alert>;
  if (!catalogue) return <Skeleton height={200} />;

  const modules = Object.keys(catalogue.modules) as PermissionModule[];
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="permissions-input">
      <Typography variant="subtitle2">{label}</Typography>
      {fieldState.error?.message && <Alert severity="error">{translate(fieldState.error.message, { _: fieldState.error.message })}</Alert>}
      {modules.map((module) => {
        const items = catalogue.member.filter((p) => p.module === module);
        if (items.length === 0) return null;
        const granted = items.filter((p) => hasPermission(value, p.key)).length;
        return (
          <Accordion key={module} disableGutters variant="outlined" data-testid={`permission-module-${module}`}>
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Stack direction="row" spacing={1.5} alignItems="center">
                <Typography fontWeight={600}>{catalogue.modules[module]}</Typography>
                <Chip size="small" label={translate('pecflow.settings.roles.granted', { count: granted, total: items.length })} />
              </Stack>
            </AccordionSummary>
            <AccordionDetails>
              <Stack spacing={0.5}>
                {items.map((p) => {
                  const beyond = permissionsBeyond(held, [p.key]).length > 0;
                  return (
                    <Stack key={p.key} direction="row" alignItems="center" justifyContent="space-between" spacing={1}>
                      <FormControlLabel
                        control={
                          <Checkbox
                            checked={hasPermission(value, p.key)}
                            disabled={readOnly || beyond}
                            onChange={(event) => field.onChange(togglePermission(value, p.key, event.target.checked, catalogue.member))}
                          />
                        }
                        label={
                          <span title={beyond ? translate('pecflow.settings.roles.beyond') : p.description}>
                            {p.label}{' '}
                            <Typography component="code" variant="caption" color="text.secondary">
                              {p.key}
                            </Typography>
                          </span>
                        }
                      />
                      <Chip size="small" color={LEVEL_COLORS[p.level]} label={translate(`pecflow.permissions.levels.${p.level}`)} />
                    </Stack>
                  );
                })}
              </Stack>
            </AccordionDetails>
          </Accordion>
        );
      })}
    </Stack>
  );
};
