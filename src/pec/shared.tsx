// Small pieces the PEC screens share: who may do what, the status badge, the file's display fallbacks, error toasts,
// and a form state validated on every change by the shared zod schemas (so each message is the spec's).
import { Alert, AlertTitle, Box, Chip, keyframes, type SxProps } from '@mui/material';
import { useMemo, useState, type ReactNode } from 'react';
import { usePermissions, useTranslate } from 'react-admin';
import type { z } from 'zod';
import { extractErrorMessage } from '../domain/errors';
import { HTTP_TIMEOUT_MS } from '../domain/limits';
import { hasPermission } from '../domain/permissions';
import { isPecStatus, pecStatusLabel, PREREQUISITE_LABELS, PULSING_STATUSES, ROBOT_TIMEOUT_MESSAGE, type PecStatus, type Prerequisite } from '../domain/pec';
import { RequestTimeoutError, type PecDossierRecord } from '../dataProvider/pec';

/** The PEC rights of the signed-in user (spec section 6); the server checks each again. */
export function usePecRights() {
  const { permissions = [] } = usePermissions<string[]>();
  const may = (key: string) => hasPermission(permissions, key);
  return {
    create: may('settings.pec.create'),
    run: may('pec.create'),
    edit: may('pec.edit'),
    remove: may('delete.pec'),
    export: may('export.pec'),
    import: may('import.pec'),
    pay: may('pec.billing'),
  };
}
export type PecRights = ReturnType<typeof usePecRights>;

const STATUS_COLORS: Record<PecStatus, 'default' | 'info' | 'warning' | 'success' | 'error' | 'primary' | 'secondary'> = {
  draft: 'default',
  processing: 'info',
  pending: 'warning',
  approved: 'success',
  rejected: 'error',
  billed: 'primary',
  paid: 'secondary',
};

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.45; }
`;

/** The status chip; "En attente" pulses (spec section 4). */
export function StatusBadge({ status, size = 'small' }: { status: string | null | undefined; size?: 'small' | 'medium' }) {
  const known = isPecStatus(status);
  const pulsing = known && PULSING_STATUSES.includes(status);
  return (
    <Chip
      label={pecStatusLabel(status)}
      size={size}
      color={known ? STATUS_COLORS[status] : 'default'}
      variant={known && status !== 'draft' ? 'filled' : 'outlined'}
      data-status={status ?? ''}
      data-pulsing={pulsing ? 'true' : undefined}
      sx={{ fontWeight: 600, ...(pulsing ? { animation: `${pulse} 1.6s ease-in-out infinite`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } } : {}) }}
    />
  );
}

/** "Prérequis manquants" and the list of what a DPEC run still needs (spec section 2). */
export function MissingPrerequisites({ missing, sx }: { missing: Prerequisite[]; sx?: SxProps }) {
  const translate = useTranslate();
  if (missing.length === 0) return null;
  return (
    <Alert severity="warning" sx={sx} data-testid="missing-prerequisites">
      <AlertTitle>{translate('pecflow.pec.prerequisites.title')}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {missing.map((item) => (
          <li key={item}>{PREREQUISITE_LABELS[item]}</li>
        ))}
      </Box>
    </Alert>
  );
}

/** A form element that submits through `onSubmit` (no page navigation, no browser validation bubbles). */
export function FormBox({ onSubmit, testId, children }: { onSubmit: () => void; testId: string; children: ReactNode }) {
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      data-testid={testId}
    >
      {children}
    </Box>
  );
}

/** How a file's references read, with the spec's fallbacks. */
export function useDossierText() {
  const translate = useTranslate();
  return {
    shop: (d: Pick<PecDossierRecord, 'shop'>) => d.shop?.name || translate('pecflow.pec.fallback.shop'),
    network: (d: Pick<PecDossierRecord, 'network' | 'mutual'>) => d.network?.name || d.mutual?.network?.name || translate('pecflow.pec.fallback.network'),
    mutual: (d: Pick<PecDossierRecord, 'mutual'>) => d.mutual?.name || translate('pecflow.pec.fallback.value'),
    value: (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? translate('pecflow.pec.fallback.value') : String(v)),
  };
}

/** The text of a failed call: a time limit, or the API's message (spec section 8 extraction order). */
export function useErrorText() {
  const translate = useTranslate();
  return (error: unknown): string => {
    if (error instanceof RequestTimeoutError) {
      return error.ms >= HTTP_TIMEOUT_MS ? ROBOT_TIMEOUT_MESSAGE : translate('pecflow.pec.errors.timeout', { seconds: Math.round(error.ms / 1000) });
    }
    return extractErrorMessage(error);
  };
}

export const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;

/** Flat form keys ("appareil.droit.marque") as the nested object a schema reads. */
export function nest(values: Values): Values {
  const out: Values = {};
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    let node = out;
    keys.slice(0, -1).forEach((key) => {
      node = (node[key] ??= {}) as Values;
    });
    node[keys[keys.length - 1]!] = value;
  }
  return out;
}

// ---------- forms ----------

type Values = Record<string, unknown>;

/**
 * A form's values checked by a zod schema on every change: the first message of each field (by its dotted path), shown
 * once the field was changed or left, or after a submit attempt. `data` is the schema's output when valid.
 */
export function useZodForm<S extends z.ZodType>(schema: S, initial: Values, toInput: (values: Values) => unknown = (v) => v) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  // eslint-disable-next-line react-hooks/exhaustive-deps
  const result = useMemo(() => schema.safeParse(toInput(values)), [schema, values]);
  const errors = useMemo(() => {
    const found: Record<string, string> = {};
    if (!result.success) for (const issue of result.error.issues) found[issue.path.join('.')] ??= issue.message;
    return found;
  }, [result]);

  const set = (field: string, value: unknown, more: Values = {}) => {
    setValues((current) => ({ ...current, [field]: value, ...more }));
    setTouched((current) => ({ ...current, [field]: true }));
    setServerErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });
  };

  /** The message to show under a field, if any. */
  const errorOf = (field: string) => serverErrors[field] ?? (touched[field] || submitted ? errors[field] : undefined);

  return {
    values,
    set,
    touch: (field: string) => setTouched((current) => (current[field] ? current : { ...current, [field]: true })),
    errorOf,
    valid: result.success,
    data: result.success ? (result.data as z.output<S>) : undefined,
    submitAttempted: () => setSubmitted(true),
    setServerErrors,
    reset: (next: Values = initial) => {
      setValues(next);
      setTouched({});
      setSubmitted(false);
      setServerErrors({});
    },
  };
}
export type ZodForm = ReturnType<typeof useZodForm>;
