// Saved views of the PEC list (issue 28), above its filters: each view is a link (/pec?view=12, to bookmark or send to a
// colleague it is shared with) that opens the list with its filters, sort and columns (its address; the columns are
// the view's only, never written over the user's own: useColumnsFromUrl); 'Enregistrer la vue' names the current ones;
// the author renames, shares with the organisation, updates with the current ones or deletes a view; anyone copies a
// view's address (its filters, sort and columns, to paste in a message or a bookmark). The server keeps them
// (/api/pec_views): a user's own and the organisation's shared ones.
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import ContentCopyIcon from '@mui/icons-material/ContentCopyOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import GroupsIcon from '@mui/icons-material/GroupsOutlined';
import PersonIcon from '@mui/icons-material/PersonOutlined';
import { Button, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { useGetList, useListFilterContext, useListSortContext, useNotify, useStore, useTranslate, type RaRecord } from 'react-admin';
import { idFromReference } from '#domain/iri';
import type { SavedViewQuery } from '#domain/savedViews';
import { OWNER_FILTER, OWNER_FILTER_ME } from '#domain/followUps';
import { pecViewAddress } from './filters';
import { columnRanksKey, columnsLayout, visibleColumns } from './columnStore';
import { chunk, lazyChunk } from '../lazyChunk';
import type { ViewDialogProps } from './SavedViewDialog';

// The editor (a dialog) loads when first opened: the list's first rows do not wait for it.
const ViewDialog = lazyChunk<ViewDialogProps>(chunk(() => import('./SavedViewDialog').then((m) => ({ default: m.ViewDialog }))));

export const PEC_VIEWS_RESOURCE = 'pec_views';
/** /pec?view=12: the list opens on that view (its filters, sort and columns), then the URL keeps its filters and sort. */
export const VIEW_PARAM = 'view';
const viewLink = (view: SavedView) => `/pec?${VIEW_PARAM}=${idFromReference(view.id, PEC_VIEWS_RESOURCE)}`;
/**
 * The list's address a view opens: its filters, sort and columns (what « Copier le lien » copies, readable without the
 * view; its columns applied by useColumnsFromUrl, as when the view's own link is followed).
 */
const viewAddress = (view: SavedView) =>
  pecViewAddress(view.query.filter ?? {}, view.query.sort ? { field: view.query.sort, order: view.query.order ?? 'ASC' } : undefined, view.columns);

/** A view's copy and edit buttons: a finger's target on a phone (44 px), MUI's small one (30 px) elsewhere. */
const VIEW_ACTION_SX = { '@media (max-width: 600px)': { width: 44, height: 44 } } as const;

export interface SavedView extends RaRecord {
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
  // The filter and sort contexts, not the whole list's: its answers (each page read, each refresh) leave the views as
  // they are instead of drawing them again (a blocking render of the list's toolbar on a slow phone).
  const { filterValues, setFilters } = useListFilterContext();
  const { sort } = useListSortContext();
  const [hidden] = useStore<string[]>(columnsStoreKey, defaultHidden);
  const [ranks] = useStore<number[] | undefined>(columnRanksKey(columnsStoreKey));
  const { data: views } = useGetList<SavedView>(PEC_VIEWS_RESOURCE, { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
  const [editing, setEditing] = useState<SavedView | 'new' | undefined>();

  // A view's link, once the user's views are read: its address in place of the link (so that Back leaves the list), whose
  // columns useColumnsFromUrl shows. A view deleted, or not shared with the reader, is said so.
  const wanted = new URLSearchParams(search).get(VIEW_PARAM);
  useEffect(() => {
    if (wanted === null || !views) return;
    const view = views.find((candidate) => String(idFromReference(candidate.id, PEC_VIEWS_RESOURCE)) === wanted);
    if (!view) {
      notify('pecflow.pec.views.notFound', { type: 'warning' });
      navigate('/pec', { replace: true });
      return;
    }
    navigate(viewAddress(view), { replace: true });
  }, [wanted, views, navigate, notify]);
  const current = { filter: filterValues, sort: sort.field, order: sort.order } as SavedViewQuery;
  // 'Mes dossiers' is a quick filter over the others: pressed, it adds 'Suivi par' = me; pressed again, it takes it away.
  const mine = filterValues[OWNER_FILTER] === OWNER_FILTER_ME;
  const toggleMine = () => {
    const next = { ...filterValues, [OWNER_FILTER]: OWNER_FILTER_ME };
    if (mine) delete next[OWNER_FILTER];
    setFilters(next, undefined, false);
  };
  // The whole address, origin included. Refused (no permission, a page not served over HTTPS, where the clipboard is
  // absent): said, nothing else changes.
  const copyLink = async (view: SavedView) => {
    try {
      await navigator.clipboard.writeText(new URL(viewAddress(view), window.location.origin).href);
      notify('pecflow.pec.views.linkCopied', { type: 'success' });
    } catch {
      notify('pecflow.pec.views.linkNotCopied', { type: 'error' });
    }
  };
  // The view the list shows now: its filters, sort and columns (a view without columns, written through the API, keeps
  // the list's), so that a chip marked current shows what its view does.
  const shownColumns = visibleColumns(allColumns, hidden, ranks).join();
  const shows = (view: SavedView) => {
    const layout = columnsLayout(allColumns, view.columns);
    return (
      JSON.stringify(view.query.filter ?? {}) === JSON.stringify(filterValues) &&
      (!view.query.sort || (view.query.sort === sort.field && (view.query.order ?? 'ASC') === sort.order)) &&
      (!view.columns.length || visibleColumns(allColumns, layout.hidden, layout.ranks).join() === shownColumns)
    );
  };

  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center" sx={{ mb: 1.5 }} data-testid="pec-saved-views">
      {/* Everyone's own, not stored: the files they follow, a toggle beside the views (links). */}
      <Chip
        label={translate('pecflow.pec.views.mine')}
        icon={<PersonIcon />}
        onClick={toggleMine}
        variant={mine ? 'filled' : 'outlined'}
        color="primary"
        aria-pressed={mine}
      />
      <nav aria-label={translate('pecflow.pec.views.label')} style={{ display: 'contents' }}>
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
            {/* The tooltip's words begin the button's name, which names the view too. */}
            <Tooltip title={translate('pecflow.pec.views.copyLinkTip')}>
              <IconButton
                size="small"
                sx={VIEW_ACTION_SX}
                aria-label={translate('pecflow.pec.views.copyLink', { name: view.name })}
                onClick={() => void copyLink(view)}
              >
                <ContentCopyIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            {view.mine && (
              <Tooltip title={translate('pecflow.pec.views.editTitle')}>
                <IconButton
                  size="small"
                  sx={VIEW_ACTION_SX}
                  aria-label={translate('pecflow.pec.views.edit', { name: view.name })}
                  onClick={() => setEditing(view)}
                >
                  <EditIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Stack>
        ))}
      </nav>
      <Button size="small" startIcon={<BookmarkAddIcon />} onClick={() => setEditing('new')}>
        {translate('pecflow.pec.views.save')}
      </Button>
      {editing && (
        <Suspense fallback={null}>
          <ViewDialog
            view={editing === 'new' ? undefined : editing}
            current={{ query: current, columns: visibleColumns(allColumns, hidden, ranks) }}
            onClose={() => setEditing(undefined)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
