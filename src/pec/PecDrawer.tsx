// The PEC drawer (spec section 2) in the one drawer frame (src/admin/DrawerFrame.tsx): on the right; view mode with
// its tabs starting on "Actions DPEC", create mode with the one tab "Informations PEC"; 'Documents' (issue 29, ./DocumentsTab) for who may see them; deletion (a draft never sent)
// behind the confirmation "Cette action est irréversible.", archiving and restoring (issue 25, ./ArchiveActions). The file number in the title never breaks at its hyphens.
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { Alert, Box, Button, Skeleton, Tab, Tabs } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FocusEvent } from 'react';
import { useDelete, useGetOne, useTranslate } from 'react-admin';
import { ConfirmDialog, DeleteMark } from '../admin/ConfirmDialog';
import { PEC_RESOURCE, pecIri, type PecDossierRecord } from '../dataProvider/pec';
import { DrawerFrame } from '../admin/DrawerFrame';
import { useConfirmDiscard } from '../admin/unsavedChanges';
import { ActionsTab } from './ActionsTab';
import { DocumentsTab } from './DocumentsTab';
import { FollowUpPanel } from './FollowUpPanel';
import { ManualResults } from './ManualResults';
import type { DrawerTarget } from './PecPage';
import { PecForm } from './PecForm';
import { PecWarnings } from './Warnings';
import { ArchivedChip, PecStatusBadge, useDossierText, useErrorText, usePecMutation, usePecRights } from './shared';
import { ArchiveActions, ArchivedNotice } from './ArchiveActions';
import { PrintSummaryAction } from './PrintSummary';
import { deletionRefusal } from '#domain/archive';

const MINUTE = 60_000;
const RUN_POLL_MS = 5_000;
/** The getOne cache key of a full file (the list's records, without devices or executions, have none). */
const ITEM_META = { view: 'item' };

interface Props {
  open: boolean;
  target: DrawerTarget;
  onClose: () => void;
  onCreated: (id: number) => void;
}

export function PecDrawer({ open, target, onClose, onCreated }: Props) {
  if (target === 'create') return <CreateDrawer open={open} onClose={onClose} onCreated={onCreated} />;
  if (target !== undefined) return <ViewDrawer key={target} open={open} id={target} onClose={onClose} />;
  return null;
}

/** The drawer is wider than a settings record's: the actions tab shows two devices side by side. */
const FRAME = { width: 820, testId: 'pec-drawer' };
/** The tabs under the title. */
const TABS_SX = { px: { xs: 2, sm: 3 }, borderBottom: 1, borderColor: 'divider' };

function CreateDrawer({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const translate = useTranslate();
  return (
    <DrawerFrame
      {...FRAME}
      open={open}
      onClose={onClose}
      title={translate('pecflow.pec.drawer.createTitle')}
      banner={
        <Tabs value="patient" sx={TABS_SX}>
          <Tab value="patient" label={translate('pecflow.pec.drawer.tabs.patient')} />
        </Tabs>
      }
    >
      <PecForm mode="create" onCreated={onCreated} onCancel={onClose} />
    </DrawerFrame>
  );
}

type TabKey = 'actions' | 'add' | 'initial' | 'documents';

function ViewDrawer({ open, id, onClose }: { open: boolean; id: number; onClose: () => void }) {
  const translate = useTranslate();
  const text = useDossierText();
  const errorText = useErrorText();
  const rights = usePecRights();
  const [tab, setTab] = useState<TabKey>('actions');
  const queryClient = useQueryClient();
  // The file with its devices and executions: its own cache entry (meta), not the list's record that react-admin copies
  // into getOne; that record only stands in for the header while the file loads.
  const {
    data: record,
    error,
    isPending,
    isPlaceholderData,
    refetch,
  } = useGetOne<PecDossierRecord & { id: string }>(
    PEC_RESOURCE,
    { id: pecIri(id), meta: ITEM_META },
    {
      placeholderData: () => queryClient.getQueryData([PEC_RESOURCE, 'getOne', { id: pecIri(id), meta: undefined }]),
      // Robot details: stale after 2 min, kept 5 min, at most 2 retries, none after a cancellation (spec section 9).
      staleTime: 2 * MINUTE,
      gcTime: 5 * MINUTE,
      // The live events bring a run's results; should they be cut, a run in progress is still followed.
      refetchInterval: (query) => ((query.state.data as PecDossierRecord | undefined)?.runInProgress ? RUN_POLL_MS : false),
      retry: (count, failure) => {
        const status = (failure as { status?: number }).status;
        return count < 2 && (failure as Error)?.name !== 'AbortError' && status !== 401 && status !== 403 && status !== 404;
      },
    },
  );
  const ready = !!record && !isPending && !isPlaceholderData;

  return (
    <DrawerFrame
      {...FRAME}
      open={open}
      onClose={onClose}
      // The list focuses the row of the file shown (PecShortcuts), not the one the drawer opened from before j / k.
      restoreFocus={false}
      title={record ? translate('pecflow.pec.drawer.viewTitle', { numero: record.numeroDossier }) : translate('pecflow.pec.drawer.loading')}
      subtitle={record && `${text.shop(record)} · ${text.network(record)} · ${text.mutual(record)}`}
      actions={
        record && (
          <>
            <PecStatusBadge status={record.status} />
            <ArchivedChip record={record} />
            {ready && <PrintSummaryAction id={id} />}
            <ArchiveActions record={record} id={id} />
            <DeleteAction record={record} id={id} onDeleted={onClose} />
          </>
        )
      }
      banner={ready && !error && <FileTabs tab={tab} onChange={setTab} />}
    >
      {error ? (
        <Alert
          severity="error"
          action={
            (error as { status?: number }).status !== 404 && (
              <Button color="inherit" size="small" onClick={() => refetch()}>
                {translate('pecflow.pec.error.retry')}
              </Button>
            )
          }
        >
          {errorText(error)}
        </Alert>
      ) : !ready ? (
        Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={56} />)
      ) : (
        <Box role="tabpanel">
          <ArchivedNotice record={record} />
          <PecWarnings warnings={record.warnings} status={record.status} />
          {tab === 'actions' && <ActionsTab record={record} id={id} />}
          {tab === 'actions' && <FollowUpPanel record={record} id={id} />}
          {tab === 'add' && <ManualResults record={record} />}
          {tab === 'initial' && <PecForm mode="view" record={record} />}
          {tab === 'documents' && rights.documents.view && <DocumentsTab id={id} archived={!!record.archived} />}
        </Box>
      )}
    </DrawerFrame>
  );
}

/**
 * The file's tabs on a phone, wider than the screen: arrows either side (MUI hides them on touch screens by default)
 * say more tabs follow and bring them; the focus ring of a tab drawn inside it, not cut by the bar's edge, which clips
 * what overflows it. MUI scrolls the selected tab into view; the one the keyboard's arrows focus is scrolled whole
 * into view too (the browser left it half out of the bar, a part of it showing).
 */
const FILE_TABS_SX = { ...TABS_SX, px: { xs: 0, sm: 3 }, '& .MuiTab-root.Mui-focusVisible': { outlineOffset: -2 } };
const showFocusedTab = (event: FocusEvent<HTMLElement>) => {
  if (event.target.getAttribute('role') === 'tab') event.target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
};

/**
 * A file's tabs. Another tab unmounts the forms of this one: what was typed in them ('Informations initiales' being
 * changed, a result being entered) is asked about first, as the drawer's closing is.
 */
function FileTabs({ tab, onChange }: { tab: TabKey; onChange: (tab: TabKey) => void }) {
  const translate = useTranslate();
  const rights = usePecRights();
  const confirmDiscard = useConfirmDiscard();
  return (
    <Tabs
      value={tab}
      onChange={(_event, value: TabKey) => confirmDiscard(() => onChange(value))}
      variant="scrollable"
      scrollButtons="auto"
      allowScrollButtonsMobile
      aria-label={translate('pecflow.pec.drawer.tabsLabel')}
      onFocus={showFocusedTab}
      sx={FILE_TABS_SX}
    >
      <Tab value="actions" label={translate('pecflow.pec.drawer.tabs.actions')} />
      <Tab value="add" label={translate('pecflow.pec.drawer.tabs.add')} />
      <Tab value="initial" label={translate('pecflow.pec.drawer.tabs.initial')} />
      {rights.documents.view && <Tab value="documents" label={translate('pecflow.pec.drawer.tabs.documents')} />}
    </Tabs>
  );
}

/** What the drawer knows of a deletion's facts (the server, which knows the payments, decides). */
const deletionFacts = (record: PecDossierRecord) => ({
  ...record,
  holdsPayment: (record.montantPaye ?? 0) > 0,
  hasRobotRun: (record.workflowExecutions ?? []).length > 0,
});

/** "Supprimer" (delete.pec), behind the confirmation "Cette action est irréversible.". */
function DeleteAction({ record, id, onDeleted }: { record: PecDossierRecord; id: number; onDeleted: () => void }) {
  const { translate, refresh, success, failure } = usePecMutation();
  const rights = usePecRights();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [remove, { isPending }] = useDelete(
    PEC_RESOURCE,
    { id: pecIri(id), previousData: record },
    {
      onSuccess: () => {
        success(translate('pecflow.pec.toast.deleted'), translate('pecflow.pec.toast.deletedText'));
        setConfirming(false);
        onDeleted();
        queryClient.removeQueries({ queryKey: [PEC_RESOURCE, 'getOne', { id: pecIri(id), meta: ITEM_META }] });
        void refresh.now();
      },
      onError: (error) => failure(translate('pecflow.pec.toast.deleteError'), error),
    },
  );
  // Only a draft that never went to the robot may be erased (domain/archive.ts); the others are archived.
  if (!rights.remove || deletionRefusal(deletionFacts(record))) return null;

  return (
    <>
      <Button color="error" startIcon={<DeleteIcon />} onClick={() => setConfirming(true)} disabled={!!record.runInProgress}>
        {translate('pecflow.pec.drawer.delete')}
      </Button>
      <ConfirmDialog
        isOpen={confirming}
        loading={isPending}
        title="pecflow.settings.confirm.title"
        content="pecflow.settings.confirm.textNamed"
        contentTranslateOptions={{ name: record.numeroDossier }}
        confirm="pecflow.settings.confirm.confirm"
        cancel="pecflow.settings.confirm.cancel"
        ConfirmIcon={DeleteMark}
        destructive
        onConfirm={() => remove()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
