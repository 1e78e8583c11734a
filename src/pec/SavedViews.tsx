// Saved views of the PEC list (issue 28), above its filters: each view is a link (/pec?view=12, to bookmark or send to a
// colleague it is shared with) that opens the list with its filters and sort (the URL) and its columns (react-admin's
// store, the key the column chooser edits); 'Enregistrer la vue' names the current ones; the author renames, shares
// with the organisation, updates with the current ones or deletes a view. The server keeps them (/api/pec_views): a
// user's own and the organisation's shared ones.
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import GroupsIcon from '@mui/icons-material/GroupsOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import {
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Stack,
  TextField,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Confirm, useCreate, useDelete, useGetList, useListContext, useNotify, useStore, useTranslate, useUpdate, type RaRecord } from 'react-admin';
import { idFromReference } from '#domain/iri';
import { extractErrorMessage } from '#domain/errors';
import { SAVED_VIEW_NAME_MAX, type SavedViewQuery } from '#domain/savedViews';
import { OWNER_FILTER, OWNER_FILTER_ME } from '#domain/followUps';
import { useMutationToasts, WRITE_RETRY } from '../admin/mutations';
import { pecListLink } from './filters';
import { usePecRights } from './shared';
import { violationsOf } from '../admin/violations';
import { columnsLayout, visibleColumns } from './columnStore';

export const PEC_VIEWS_RESOURCE = 'pec_views';
/** /pec?view=12: the list opens on that view (its filters, sort and columns), then the URL keeps its filters and sort. */
export const VIEW_PARAM = 'view';
const MY_FILES_FILTER = { [OWNER_FILTER]: OWNER_FILTER_ME };
const viewLink = (view: SavedView) => `/pec?${VIEW_PARAM}=${idFromReference(view.id, PEC_VIEWS_RESOURCE)}`;

interface SavedView extends RaRecord {
  name: string;
  query: SavedViewQuery;
  columns: string[];
  shared: boolean;
  mine: boolean;
  authorName?: string;
}

export function PecSavedViews({ columnsStoreKey, allColumns, defaultHidden }: { columnsStoreKey: string; allColumns: string[]; defaultHidden: string[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { filterValues, sort } = useListContext();
  const [hidden, setHidden] = useStore<string[]>(columnsStoreKey, defaultHidden);
  const [ranks, setRanks] = useStore<number[] | undefined>(`${columnsStoreKey}_columnRanks`);
  const { data: views } = useGetList<SavedView>(PEC_VIEWS_RESOURCE, { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
  const [editing, setEditing] = useState<SavedView | 'new' | undefined>();

  // A view's link, once the user's views are read: its columns go to the store, its filters and sort to the URL (in
  // place of the link, so that Back leaves the list). A view deleted, or not shared with the reader, is said so.
  const wanted = new URLSearchParams(search).get(VIEW_PARAM);
  useEffect(() => {
    if (wanted === null || !views) return;
    const view = views.find((candidate) => String(idFromReference(candidate.id, PEC_VIEWS_RESOURCE)) === wanted);
    if (!view) {
      notify('pecflow.pec.views.notFound', { type: 'warning' });
      navigate('/pec', { replace: true });
      return;
    }
    // A view without columns (written through the API) keeps the list's.
    if (view.columns.length) {
      const layout = columnsLayout(allColumns, view.columns);
      setHidden(layout.hidden);
      setRanks(layout.ranks);
    }
    const viewSort = view.query.sort ? { field: view.query.sort, order: view.query.order ?? 'ASC' } : undefined;
    navigate(pecListLink(view.query.filter ?? {}, viewSort), { replace: true });
  }, [wanted, views, allColumns, setHidden, setRanks, navigate, notify]);
  const current = { filter: filterValues, sort: sort.field, order: sort.order } as SavedViewQuery;
  const mineChosen = Object.keys(filterValues).length === 1 && filterValues[OWNER_FILTER] === OWNER_FILTER_ME;
  // The view the list shows now: its filters and sort (the columns are the user's to change within it).
  const shows = (view: SavedView) =>
    JSON.stringify(view.query.filter ?? {}) === JSON.stringify(filterValues) &&
    (!view.query.sort || (view.query.sort === sort.field && (view.query.order ?? 'ASC') === sort.order));

  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center" sx={{ mb: 1.5 }} data-testid="pec-saved-views">
      <nav aria-label={translate('pecflow.pec.views.label')} style={{ display: 'contents' }}>
        {/* Everyone's own view, not stored: the files they follow ('Suivi par' = me), with the list's columns. */}
        <Chip
          label={translate('pecflow.pec.views.mine')}
          icon={<PersonIcon />}
          component={RouterLink}
          to={pecListLink(MY_FILES_FILTER)}
          clickable
          variant={mineChosen ? 'filled' : 'outlined'}
          color="primary"
          aria-current={mineChosen ? 'page' : undefined}
          data-testid="view-mine"
        />
        {(views ?? []).map((view) => (
          <Stack key={view.id} direction="row" alignItems="center" spacing={0}>
            <Chip
              label={view.name}
              icon={view.shared ? <GroupsIcon /> : undefined}
              title={view.shared && !view.mine ? translate('pecflow.pec.views.sharedBy', { name: view.authorName ?? '' }) : undefined}
              component={RouterLink}
              to={viewLink(view)}
              clickable
              variant={shows(view) ? 'filled' : 'outlined'}
              color="primary"
              aria-current={shows(view) ? 'page' : undefined}
            />
            {view.mine && (
              <IconButton size="small" aria-label={translate('pecflow.pec.views.edit', { name: view.name })} onClick={() => setEditing(view)}>
                <EditIcon fontSize="small" />
              </IconButton>
            )}
          </Stack>
        ))}
      </nav>
      <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => setEditing('new')}>
        {translate('pecflow.pec.views.save')}
      </Button>
      {editing && (
        <ViewDialog
          view={editing === 'new' ? undefined : editing}
          current={{ query: current, columns: visibleColumns(allColumns, hidden, ranks) }}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Stack>
  );
}

/**
 * 'Enregistrer la vue' (the current filters, sort and columns) or the author's rename, share and delete of one, which
 * may also take the list's current filters, sort and columns.
 */
function ViewDialog({ view, current, onClose }: { view?: SavedView; current: { query: SavedViewQuery; columns: string[] }; onClose: () => void }) {
  const translate = useTranslate();
  const toasts = useMutationToasts();
  const [name, setName] = useState(view?.name ?? '');
  const [shared, setShared] = useState(view?.shared ?? false);
  // 'Modifier la vue' keeps the view's filters, sort and columns unless asked to take the list's current ones.
  const [takeCurrent, setTakeCurrent] = useState(false);
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const rights = usePecRights();
  const [create, creating] = useCreate();
  const [update, updating] = useUpdate();
  const [remove, removing] = useDelete();
  const busy = creating.isPending || updating.isPending || removing.isPending;

  // A refused name (taken, too long) is said under the field; anything else in a toast. The Hydra client's error body
  // is expanded JSON-LD: violationsOf reads it.
  const failed = (failure: unknown) => {
    const message = violationsOf(failure)?.name;
    if (message) setError(message);
    else toasts.failure(failure, undefined, extractErrorMessage(failure));
  };
  const done = (key: string, saved: string) => () => {
    toasts.success(translate(`pecflow.pec.views.${key}`, { name: saved }));
    onClose();
  };

  const submit = () => {
    const trimmed = name.trim();
    if (view) {
      update(
        PEC_VIEWS_RESOURCE,
        { id: view.id, data: { name: trimmed, shared, ...(takeCurrent ? current : { query: view.query, columns: view.columns }) }, previousData: view },
        { ...WRITE_RETRY, onSuccess: done('updated', trimmed), onError: failed },
      );
    } else {
      create(PEC_VIEWS_RESOURCE, { data: { name: trimmed, shared, ...current } }, { ...WRITE_RETRY, onSuccess: done('created', trimmed), onError: failed });
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle>{translate(view ? 'pecflow.pec.views.editTitle' : 'pecflow.pec.views.saveTitle')}</DialogTitle>
        <DialogContent>
          {!view && <DialogContentText sx={{ mb: 2 }}>{translate('pecflow.pec.views.saveText')}</DialogContentText>}
          <TextField
            autoFocus
            fullWidth
            required
            label={translate('pecflow.pec.views.name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setError(undefined);
            }}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { maxLength: SAVED_VIEW_NAME_MAX } }}
            sx={{ mt: 1 }}
          />
          {(rights.edit || shared) && (
            <FormControlLabel
              control={<Checkbox checked={shared} onChange={(event) => setShared(event.target.checked)} />}
              label={translate('pecflow.pec.views.share')}
            />
          )}
          {view && (
            <FormControlLabel
              control={<Checkbox checked={takeCurrent} onChange={(event) => setTakeCurrent(event.target.checked)} />}
              label={translate('pecflow.pec.views.takeCurrent')}
            />
          )}
        </DialogContent>
        <DialogActions>
          {view && (
            <Button color="error" onClick={() => setConfirming(true)} disabled={busy} sx={{ mr: 'auto' }}>
              {translate('pecflow.pec.views.delete')}
            </Button>
          )}
          <Button onClick={onClose}>{translate('pecflow.pec.views.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy || !name.trim()}>
            {translate('pecflow.pec.views.submit')}
          </Button>
        </DialogActions>
      </form>
      {view && (
        <Confirm
          isOpen={confirming}
          title={translate('pecflow.pec.views.deleteTitle')}
          content={translate('pecflow.pec.views.deleteText', { name: view.name })}
          confirm={translate('pecflow.pec.views.delete')}
          cancel={translate('pecflow.pec.views.cancel')}
          onConfirm={() =>
            remove(PEC_VIEWS_RESOURCE, { id: view.id, previousData: view }, { ...WRITE_RETRY, onSuccess: done('deleted', view.name), onError: failed })
          }
          onClose={() => setConfirming(false)}
        />
      )}
    </Dialog>
  );
}
