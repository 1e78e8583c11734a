// Small pieces the PEC screens share: who may do what, the data provider and the one refresh of everything PEC, the
// status badge, the file's display fallbacks and the text of a failed call.
import ArchiveIcon from '@mui/icons-material/Inventory2Outlined';
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import { Alert, AlertTitle, Box, Chip, type SxProps } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, usePermissions, useTranslate } from 'react-admin';
import { StatusBadge } from '../admin/StatusBadge';
import { useMutationToasts } from '../admin/mutations';
import type { AppDataProvider } from '../dataProvider';
import { PEC_QUERY_KEYS, PEC_RESOURCE, RequestTimeoutError, type PecDossierRecord } from '../dataProvider/pec';
import { extractErrorMessage } from '#domain/errors';
import { ARCHIVED_LABEL, archiveReasonText } from '#domain/archive';
import { HTTP_TIMEOUT_MS, REFETCH_AFTER_ACTION_MS } from '#domain/limits';
import { ACT_ON_FILE_PERMISSION, hasPermission } from '#domain/permissions';
import { DOCUMENT_PERMISSIONS } from '#domain/documents';
import {
  isPecStatus,
  PAYMENT_PERMISSION,
  pecStatusLabel,
  PREREQUISITE_LABELS,
  PULSING_STATUSES,
  ROBOT_TIMEOUT_MESSAGE,
  shapeRobotError,
  type PecStatus,
  type Prerequisite,
} from '#domain/pec';

/**
 * The PEC rights of the signed-in user (spec section 6); the server checks each again. Given a file, its rights on that
 * file: an archived file's content (its fields, documents and notes) changes no more (issue 25, server/pec/archive.ts).
 */
export function usePecRights(file?: { archived?: boolean | null }) {
  const { permissions = [] } = usePermissions<string[]>();
  const open = !file?.archived;
  const may = (key: string) => hasPermission(permissions, key);
  return {
    create: may('settings.pec.create'),
    run: may(ACT_ON_FILE_PERMISSION),
    edit: may('pec.edit') && open,
    /** Its author's recent notes may still be changed or deleted. */
    notesChangeable: open,
    remove: may('delete.pec'),
    export: may('export.pec'),
    import: may('import.pec'),
    pay: may(PAYMENT_PERMISSION),
    documents: { view: may(DOCUMENT_PERMISSIONS.view), create: may(DOCUMENT_PERMISSIONS.create) && open, delete: may(DOCUMENT_PERMISSIONS.delete) && open },
  };
}

/** The data provider with its PEC methods (robot runs, callbacks, billing, stats, import, export). */
export const usePecData = () => useDataProvider<AppDataProvider>();

/** Colleagues change rarely: their lists are kept this long. */
export const COLLEAGUES_STALE_MS = 5 * 60_000;

/** The reader's colleagues (the 'Suivi par' filter, 'Assigner à…'). */
export function useMyColleagues(enabled = true) {
  const dataProvider = usePecData();
  return (
    useQuery({ queryKey: [PEC_RESOURCE, 'my-colleagues'], queryFn: () => dataProvider.pecMyColleagues(), staleTime: COLLEAGUES_STALE_MS, enabled }).data ?? []
  );
}

/**
 * Everything the PEC screens show lives under the `pec_dossiers` query key (react-admin's list and files, the
 * dashboard's figures), a file's payment history under `pec_payments`: one call refreshes it all. `soon`: 200 ms after
 * an action (spec section 4).
 */
export function useRefreshPec() {
  const queryClient = useQueryClient();
  const now = () => Promise.all(PEC_QUERY_KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(() => undefined);
  return { now, soon: () => setTimeout(() => void now(), REFETCH_AFTER_ACTION_MS) };
}

const STATUS_COLORS: Record<PecStatus, 'default' | 'info' | 'warning' | 'success' | 'error' | 'primary' | 'secondary'> = {
  draft: 'default',
  processing: 'info',
  pending: 'warning',
  approved: 'success',
  rejected: 'error',
  billed: 'primary',
  paid: 'secondary',
};

/** A file's status in the one status badge: its French label and colour; "En attente" pulses (spec section 4). */
export function PecStatusBadge({ status, size }: { status: string | null | undefined; size?: 'small' | 'medium' }) {
  const known = isPecStatus(status);
  return (
    <StatusBadge
      status={status}
      label={pecStatusLabel(status)}
      color={known ? STATUS_COLORS[status] : 'default'}
      variant={known && status !== 'draft' ? 'filled' : 'outlined'}
      pulsing={known && PULSING_STATUSES.includes(status)}
      size={size}
    />
  );
}

/** 'Archivée' (issue 25): its own chip beside the status, which stays the spec's; its reason in its title. */
export function ArchivedChip({
  record,
  size = 'small',
}: {
  record: Pick<PecDossierRecord, 'archived' | 'archiveReason' | 'archiveNote'>;
  size?: 'small' | 'medium';
}) {
  if (!record.archived) return null;
  return (
    <Chip
      label={ARCHIVED_LABEL}
      size={size}
      variant="outlined"
      color="warning"
      icon={<ArchiveIcon />}
      title={archiveReasonText(record.archiveReason, record.archiveNote)}
      data-testid="archived-chip"
      sx={{ fontWeight: 600 }}
    />
  );
}

/** The latest robot run's failure in the office's words (spec section 8), or nothing. */
export function robotFailureText(record: Pick<PecDossierRecord, 'robotFailure'>): string | undefined {
  if (!record.robotFailure) return undefined;
  const { title, message } = shapeRobotError(record.robotFailure.messages, record.robotFailure.kind);
  return `${title} : ${message}`;
}

/** 'Échec du robot' beside the status when the file's latest robot run failed lately: the reason in its title. */
export function RobotFailureChip({ record }: { record: Pick<PecDossierRecord, 'robotFailure'> }) {
  const translate = useTranslate();
  const text = robotFailureText(record);
  if (!text) return null;
  return (
    <Chip
      label={translate('pecflow.pec.robotFailure')}
      size="small"
      variant="outlined"
      color="error"
      icon={<ErrorIcon />}
      title={text}
      aria-label={`${translate('pecflow.pec.robotFailure')} : ${text}`}
      data-testid="robot-failure-chip"
      sx={{ fontWeight: 600 }}
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

/** How a file's references read, with the spec's fallbacks. */
export function useDossierText() {
  const translate = useTranslate();
  return {
    shop: (d: Pick<PecDossierRecord, 'shop'>) => d.shop?.name || translate('pecflow.pec.fallback.shop'),
    network: (d: Pick<PecDossierRecord, 'network' | 'mutual'>) => d.network?.name || d.mutual?.network?.name || translate('pecflow.pec.fallback.network'),
    mutual: (d: Pick<PecDossierRecord, 'mutual'>) => d.mutual?.name || translate('pecflow.pec.fallback.value'),
    /** 'Suivi par': the embedded user's names (a bare IRI, without them, is nobody's name to show). */
    owner: (d: Pick<PecDossierRecord, 'owner'>) =>
      (typeof d.owner === 'object' && [d.owner?.firstName, d.owner?.lastName].filter(Boolean).join(' ')) || translate('pecflow.pec.fallback.value'),
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

/**
 * What every write of the PEC screens starts with: the translation, the data provider, the refresh of everything PEC
 * and the toasts of the shared screen parts, the failure's text saying a timeout in the PEC screens' words.
 */
export function usePecMutation() {
  const translate = useTranslate();
  const toasts = useMutationToasts();
  const errorText = useErrorText();
  return {
    translate,
    dataProvider: usePecData(),
    refresh: useRefreshPec(),
    /** The title over the action's text, if any. */
    success: (title: string, message = '') => toasts.success(message, title),
    /** The title over the server's reason (or the timeout's), or over a text of the caller's (a shaped robot error). */
    failure: (title: string, error: unknown, message = errorText(error)) => toasts.failure(error, title, message),
    /** The server's reason alone (the first line of it for a refusal whose lines are listed apart). */
    errorText,
  };
}

export const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;
