// The ONE drawer frame of the application (settings records and PEC files): on the right, full screen on a phone,
// a header with the title ('Nouveau …' / 'Modifier …'), an optional subtitle ('ID: {id}'), the actions and the close
// button, then the content. The actions sit in the header, at the top: a toast (bottom right) never covers them.
// Usage: <DrawerFrame open title="Modifier centre" subtitle="ID: 12" actions={<Button>Enregistrer</Button>} onClose={…}>…</DrawerFrame>
// With a form: wrap={(content) => <Form …>{content}</Form>} so that the header's submit button belongs to the form.
// A form in it that holds changes not saved (AdminForm tells it, src/admin/unsavedChanges.ts) makes Escape, the close
// button, a click beside the drawer, the browser's back button and whatever else would drop the changes (a form's
// « Annuler », a tab, the PEC list's j / k) ask first: « Abandonner les modifications ? », opening on « Continuer la
// saisie », which gives the focus back to where it was in the drawer (the field typed in, also after a click beside);
// a drawer with nothing typed closes at once. A save that succeeds calls onClose itself.
// The drawer is the one dialog, named by its title (aria-labelledby).
import CloseIcon from '@mui/icons-material/Close';
import { Box, Drawer, IconButton, Stack, Typography } from '@mui/material';
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { setDrawerInset } from '../layout/drawerInset';
import { ConfirmDialog, DiscardMark } from './ConfirmDialog';
import { focusOnShow } from './focusOnShow';
import { useDocumentTitle } from '../layout/documentTitle';
import { skipToContent } from '../layout/skipToContent';
import {
  UnsavedChangesContext,
  useHistoryQuestion,
  useLeavePageQuestion,
  useFocusToGiveBack,
  useOpenDrawerQuestion,
  type ConfirmDiscard,
} from './unsavedChanges';

export const DRAWER_WIDTH = 720;

interface DrawerFrameProps {
  open: boolean;
  onClose: () => void;
  /** After the closing animation (the content can then be dropped). */
  onExited?: () => void;
  title: string;
  /** What the browser's tab says when it can say more than the title (the record's name); the title otherwise. */
  tabTitle?: string;
  /**
   * The title takes the focus as it is drawn: the drawer opens on what an action elsewhere made (a statement applied),
   * the page that had the focus gone with it.
   */
  focusTitle?: boolean;
  /** Under the title: 'ID: 12' (data-testid="drawer-id"). */
  subtitle?: ReactNode;
  /** Buttons beside the close button (Supprimer, Annuler, Enregistrer…). */
  actions?: ReactNode;
  /** Under the header, above the scrolling content (tabs). */
  banner?: ReactNode;
  width?: number;
  testId?: string;
  /** false: closing leaves the focus to the caller (the PEC list focuses the row of the file shown last). */
  restoreFocus?: boolean;
  /** Wraps header and content, e.g. in a react-admin <Form>, so that a submit button of `actions` belongs to it. */
  wrap?: (content: ReactNode) => ReactNode;
  children?: ReactNode;
}

/** Title words never break inside themselves: a file number 'PEC-2026-0042' stays whole on a 390 px screen. */
export function UnbrokenWords({ text }: { text: string }) {
  return (
    <>
      {text.split(' ').map((word, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {word}
          </Box>
        </Fragment>
      ))}
    </>
  );
}

/** The focus left in a drawer that goes (or gone with it) to the page's content, where the skip link leaves it. */
function focusContentIfLost() {
  const left = document.activeElement;
  if (!left || left === document.body || left.closest('.MuiDrawer-root')) skipToContent();
}

export function DrawerFrame(props: DrawerFrameProps) {
  const {
    open,
    onClose,
    onExited,
    title,
    tabTitle = title,
    focusTitle = false,
    subtitle,
    actions,
    banner,
    width = DRAWER_WIDTH,
    testId = 'resource-drawer',
    restoreFocus = true,
    wrap,
    children,
  } = props;
  const translate = useTranslate();
  const titleId = useId();
  useDocumentTitle(open ? tabTitle : undefined, { record: true });
  useEffect(() => {
    setDrawerInset(open ? width : 0);
    return () => setDrawerInset(0);
  }, [open, width]);
  // The forms holding changes not saved (read when the user closes, never drawn).
  const unsaved = useRef(new Set<string>());
  const mark = useCallback((form: string, holds: boolean) => void (holds ? unsaved.current.add(form) : unsaved.current.delete(form)), []);
  // Asking: what « Abandonner » then does (close, show another file or tab, go back in the history).
  const [asking, setAsking] = useState<{ discard: () => void }>();
  const { body, onFocus, giveBack } = useFocusToGiveBack();
  const confirmDiscard = useCallback<ConfirmDiscard>(
    (discard) => {
      if (unsaved.current.size === 0) return discard();
      giveBack();
      setAsking({ discard });
    },
    [giveBack],
  );
  const unsavedChanges = useMemo(() => ({ mark, confirmDiscard }), [mark, confirmDiscard]);
  useOpenDrawerQuestion(open, confirmDiscard);
  useHistoryQuestion(open, () => unsaved.current.size > 0, confirmDiscard);
  useLeavePageQuestion(open, () => unsaved.current.size > 0);
  const requestClose = () => confirmDiscard(onClose);
  // Closed, the focus goes back to what opened the drawer (MUI's own restore). Opened from its address or by an action
  // elsewhere (a statement applied), nothing did: the focus, left in the drawer as it goes (or gone with it, a drawer
  // unmounted as it closes), would fall to the page's body; it goes to the page's content (its title, else the content
  // itself), as the skip link leaves it.
  useEffect(() => (restoreFocus ? focusContentIfLost : undefined), [restoreFocus]);
  const exited = () => {
    if (restoreFocus) focusContentIfLost();
    onExited?.();
  };
  const content = (
    <>
      <Stack
        direction="row"
        alignItems="flex-start"
        justifyContent="space-between"
        spacing={1}
        sx={{ px: { xs: 2, sm: 3 }, pt: 2.5, pb: 1.5, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography
            id={titleId}
            ref={focusTitle ? focusOnShow : undefined}
            tabIndex={focusTitle ? -1 : undefined}
            variant="h6"
            component="h2"
            fontWeight={700}
          >
            <UnbrokenWords text={title} />
          </Typography>
          {subtitle && (
            <Typography variant="body2" color="text.secondary" data-testid="drawer-id">
              {subtitle}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} alignItems="center" sx={{ ml: 'auto' }}>
          {actions}
          <IconButton onClick={requestClose} aria-label={translate('pecflow.settings.form.close')} edge="end">
            <CloseIcon />
          </IconButton>
        </Stack>
      </Stack>
      {banner}
      <Box sx={{ flex: 1, minHeight: 0, overflowY: 'auto', px: { xs: 2, sm: 3 }, py: 2 }}>{children}</Box>
    </>
  );
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={requestClose}
      disableRestoreFocus={!restoreFocus}
      slotProps={{
        // The paper is MUI's dialog, the element that takes the focus as the drawer opens: its name is the title.
        paper: { sx: { width: { xs: '100%', sm: width }, maxWidth: '100%' }, 'data-testid': testId, 'aria-labelledby': titleId } as object,
        transition: { onExited: exited },
      }}
    >
      <Box
        ref={body}
        onFocus={onFocus}
        sx={{ display: 'flex', flexDirection: 'column', height: '100%', '& > form': { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 } }}
      >
        <UnsavedChangesContext.Provider value={unsavedChanges}>{wrap ? wrap(content) : content}</UnsavedChangesContext.Provider>
      </Box>
      {/* Inside the drawer: closing both at once, the focus goes back to what opened the drawer, not into it. */}
      <ConfirmDialog
        isOpen={!!asking}
        title="pecflow.settings.form.discard.title"
        content="pecflow.settings.form.discard.text"
        confirm="pecflow.settings.form.discard.confirm"
        cancel="pecflow.settings.form.discard.cancel"
        ConfirmIcon={DiscardMark}
        destructive
        onConfirm={() => {
          setAsking(undefined);
          asking?.discard();
        }}
        onClose={() => setAsking(undefined)}
      />
    </Drawer>
  );
}
