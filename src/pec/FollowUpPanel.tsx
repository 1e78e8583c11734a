// Follow-ups in the drawer (issue 28, domain/followUps.ts): 'Suivi par' and 'Relance le', saved as a merge-patch by
// whoever may edit the file, then the notes thread (oldest first): a text field whose '@' offers the colleagues who see
// the file, and the author's own notes changed or deleted within 15 minutes (a deletion asked first). An archived file
// (issue 25) shows its follow-up read-only and takes no new note, as the server refuses them.
import { Alert, Box, Button, List, ListItem, ListItemText, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { NOTE_DRAFT_PREFIX } from '../session';
import { useCreate, useDelete, useGetIdentity, useGetList, useTranslate, useUpdate } from 'react-admin';
import { ConfirmDialog, DeleteMark } from '../admin/ConfirmDialog';
import { DatePickerField, INVALID_DAY } from '../admin/DatePickerField';
import { PEC_RESOURCE, pecIri, type PecColleague, type PecDossierRecord } from '../dataProvider/pec';
import { COLLEAGUES_STALE_MS, usePecMutation, usePecRights } from './shared';
import { followUpReason, NOTE_LINK_PARAM, NOTE_MAX, noteEditable, noteEditedAt } from '#domain/followUps';
import { todayInFrance } from '#domain/pec';
import { formatDate, formatDateTime } from '#domain/format';
import { idFromReference } from '#domain/iri';

const NOTES = 'pec_notes';
const nameOf = (c: { firstName?: string; lastName?: string }) => `${c.firstName ?? ''} ${c.lastName ?? ''}`.trim();

interface NoteRecord {
  id: string;
  body: string;
  createdAt: string;
  updatedAt?: string;
  author?: { '@id': string; firstName?: string; lastName?: string } | null;
}

export function FollowUpPanel({ record, id }: { record: PecDossierRecord; id: number }) {
  const translate = useTranslate();
  const { dataProvider } = usePecMutation();
  const { data: colleagues } = useQuery({
    queryKey: [PEC_RESOURCE, 'colleagues', id],
    queryFn: () => dataProvider.pecColleagues(id),
    staleTime: COLLEAGUES_STALE_MS,
  });
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} component="section" aria-labelledby="pec-follow-up" data-testid="pec-follow-up">
      <Typography id="pec-follow-up" variant="subtitle1" component="h3" fontWeight={700} sx={{ mb: 1.5 }}>
        {translate('pecflow.pec.followUp.title')}
      </Typography>
      <FollowUpFields record={record} id={id} colleagues={colleagues} />
      <FollowUpReason record={record} />
      <Notes record={record} id={id} colleagues={colleagues ?? []} />
    </Paper>
  );
}

/** Why the file is "À relancer" (the server says whether it is due; domain/followUps.ts says why). */
function FollowUpReason({ record }: { record: PecDossierRecord }) {
  const translate = useTranslate();
  const now = new Date();
  const reason =
    record.followUpDue &&
    followUpReason({ status: record.status, statusChangedAt: record.statusChangedAt ?? null, followUpDate: record.followUpDate ?? null }, todayInFrance(now));
  if (!reason) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="follow-up-reason">
      {translate('pecflow.pec.followUp.due', { reason })}
    </Alert>
  );
}

/** `colleagues`: undefined until read (the owner is shown as it is meanwhile). */
function FollowUpFields({ record, id, colleagues }: { record: PecDossierRecord; id: number; colleagues: PecColleague[] | undefined }) {
  const { translate, refresh, success, failure } = usePecMutation();
  const rights = usePecRights(record);
  // The fields stay enabled while saving: a field disabled under the keyboard would drop the focus to the drawer's top.
  const [update] = useUpdate();
  const owner = typeof record.owner === 'string' ? record.owner : (record.owner?.['@id'] ?? '');
  const followers = (colleagues ?? []).filter((c) => c.mayFollow);
  const ownerName = typeof record.owner === 'object' && record.owner ? nameOf(record.owner) : '';
  const save = async (data: Record<string, unknown>) => {
    try {
      await update(PEC_RESOURCE, { id: pecIri(id), data, previousData: record }, { returnPromise: true });
      success(translate('pecflow.pec.followUp.saved'));
      void refresh.now();
    } catch (error) {
      failure(translate('pecflow.pec.followUp.error'), error);
    }
  };
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }}>
      <TextField
        select
        size="small"
        label={translate('pecflow.pec.followUp.owner')}
        value={owner}
        disabled={!rights.edit}
        onChange={(event) => void save({ owner: event.target.value || null })}
        sx={{ minWidth: 240 }}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        data-testid="follow-up-owner"
      >
        <MenuItem value="">{translate('pecflow.pec.followUp.nobody')}</MenuItem>
        {/* An owner who may no longer follow the file (centres or role changed since) is shown as such, not as nobody. */}
        {owner && !followers.some((c) => c['@id'] === owner) && (
          <MenuItem value={owner} disabled>
            {colleagues ? translate('pecflow.pec.followUp.cannotFollow', { name: ownerName }) : ownerName}
          </MenuItem>
        )}
        {followers.map((c) => (
          <MenuItem key={c['@id']} value={c['@id']}>
            {nameOf(c)}
          </MenuItem>
        ))}
      </TextField>
      <DatePickerField
        label={translate('pecflow.pec.followUp.date')}
        value={record.followUpDate ?? ''}
        helperText={record.followUpDate ? undefined : translate('pecflow.pec.followUp.noDate')}
        disabled={!rights.edit}
        saveOnLeave
        onChange={(day) => {
          if (day !== INVALID_DAY) void save({ followUpDate: day || null });
        }}
      />
    </Stack>
  );
}

/** The '@name' being typed at the end of the text, if any. */
const typedMention = (text: string) => /(?:^|\s)@([\p{L}\p{N}' -]{0,40})$/u.exec(text)?.[1];

/**
 * The note being written on each file, kept while the user moves to another file, closes the drawer (Échap, Alt+↓)
 * or reloads the page: a note half-typed is never lost; it goes once added, or at sign-out (this tab's session storage).
 */
const draftKey = (id: number) => `${NOTE_DRAFT_PREFIX}${id}`;
const drafts = {
  get: (id: number) => sessionStorage.getItem(draftKey(id)) ?? undefined,
  set: (id: number, text: string) => sessionStorage.setItem(draftKey(id), text),
  delete: (id: number) => sessionStorage.removeItem(draftKey(id)),
};

/** An archived file's thread takes no new note, and its notes are no longer changed (usePecRights). */
function Notes({ record, id, colleagues }: { record: PecDossierRecord; id: number; colleagues: PecColleague[] }) {
  const translate = useTranslate();
  const rights = usePecRights(record);
  const { identity } = useGetIdentity();
  const { success, failure } = usePecMutation();
  const [text, setTextState] = useState(() => drafts.get(id) ?? '');
  // Another file shown in the same drawer: its own draft (adjusted during render).
  const [draftOf, setDraftOf] = useState(id);
  if (draftOf !== id) {
    setDraftOf(id);
    setTextState(drafts.get(id) ?? '');
  }
  const setText = (next: string) => {
    if (next) drafts.set(id, next);
    else drafts.delete(id);
    setTextState(next);
  };
  const input = useRef<HTMLTextAreaElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  // The suggestion the arrows point at; Échap hides the list until the text changes.
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string>();
  const filter = { dossier: pecIri(id) };
  const {
    data: notes = [],
    isPending: reading,
    refetch,
  } = useGetList<NoteRecord>(NOTES, {
    filter,
    sort: { field: 'createdAt', order: 'ASC' },
    pagination: { page: 1, perPage: 200 },
  });
  useNoteFromLink(reading);
  const [create, { isPending }] = useCreate();
  const [remove] = useDelete();
  // The note whose deletion is asked (kept while the dialog fades out, which still shows it).
  const [deleting, setDeleting] = useState<NoteRecord>();
  const [confirming, setConfirming] = useState(false);
  const typing = typedMention(text);
  const suggestions =
    typing === undefined || dismissed === text
      ? []
      : colleagues.filter((c) => nameOf(c).toLocaleLowerCase('fr').startsWith(typing.toLocaleLowerCase('fr'))).slice(0, 6);
  const chosen = Math.min(active, Math.max(suggestions.length - 1, 0));
  // The name replaces what was typed after '@'; the caret stays in the text, after it, to go on writing.
  const mention = (c: PecColleague) => {
    setText(`${text.slice(0, text.length - (typing?.length ?? 0))}${nameOf(c)} `);
    setActive(0);
    requestAnimationFrame(() => {
      const field = input.current;
      field?.focus();
      field?.setSelectionRange(field.value.length, field.value.length);
    });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (suggestions.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((chosen + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      mention(suggestions[chosen]!);
    } else if (event.key === 'Escape') {
      // The list closes, not the drawer.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(text);
    }
  };
  const add = async () => {
    try {
      await create(NOTES, { data: { dossier: pecIri(id), body: text } }, { returnPromise: true });
      setText('');
      // The add button greys once the text is empty: the focus stays in the note box, ready for the next note.
      input.current?.focus();
      success(translate('pecflow.pec.notes.added'));
      void refetch();
    } catch (error) {
      failure(translate('pecflow.pec.notes.error'), error);
    }
  };
  const removeNote = async (note: NoteRecord) => {
    // Closed first: the dialog gives the focus back to the note's 'Supprimer' while the note is still there.
    setConfirming(false);
    try {
      await remove(NOTES, { id: note.id, previousData: note }, { returnPromise: true });
      // The note and its buttons are gone: the focus goes to the note box (else to the notes' title), not to the page.
      (input.current ?? title.current)?.focus();
      success(translate('pecflow.pec.notes.deleted'));
      void refetch();
    } catch (error) {
      failure(translate('pecflow.pec.notes.deleteError'), error);
    }
  };
  return (
    <Box component="section" aria-labelledby="pec-notes" data-testid="pec-notes">
      <Typography id="pec-notes" variant="subtitle2" component="h3" fontWeight={700} ref={title} tabIndex={-1}>
        {translate('pecflow.pec.notes.title')}
      </Typography>
      {notes.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {translate('pecflow.pec.notes.empty')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {notes.map((note) => (
            <NoteItem
              key={note.id}
              note={note}
              // Its author's, on a file not archived (an archived file's thread is kept as it was).
              changeable={rights.notesChangeable && !!identity && idFromReference(note.author?.['@id'], 'users') === Number(identity.id)}
              onChanged={refetch}
              onDelete={() => {
                setDeleting(note);
                setConfirming(true);
              }}
            />
          ))}
        </List>
      )}
      {rights.edit && (
        <Box sx={{ position: 'relative', mt: 1 }}>
          <TextField
            multiline
            minRows={2}
            fullWidth
            size="small"
            label={translate('pecflow.pec.notes.new')}
            helperText={translate('pecflow.pec.notes.help')}
            value={text}
            onChange={(event) => setText(event.target.value.slice(0, NOTE_MAX))}
            onKeyDown={onKeyDown}
            inputRef={input}
            slotProps={{
              htmlInput: {
                role: 'combobox',
                'aria-expanded': suggestions.length > 0,
                'aria-controls': suggestions.length > 0 ? 'note-mentions' : undefined,
                'aria-activedescendant': suggestions.length > 0 ? `note-mention-${chosen}` : undefined,
                'aria-autocomplete': 'list',
              },
            }}
            data-testid="note-text"
          />
          {suggestions.length > 0 && (
            <Paper
              elevation={4}
              sx={{ position: 'absolute', zIndex: 2, left: 0, top: '100%' }}
              role="listbox"
              id="note-mentions"
              aria-label={translate('pecflow.pec.notes.mention')}
            >
              {suggestions.map((c, index) => (
                <MenuItem
                  key={c['@id']}
                  id={`note-mention-${index}`}
                  role="option"
                  selected={index === chosen}
                  aria-selected={index === chosen}
                  // The text keeps the focus: a click chooses without taking it.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => mention(c)}
                  data-testid="note-mention-option"
                >
                  {nameOf(c)}
                </MenuItem>
              ))}
            </Paper>
          )}
          <Button variant="contained" size="small" sx={{ mt: 1 }} disabled={!text.trim() || isPending} onClick={() => void add()} data-testid="note-add">
            {translate('pecflow.pec.notes.add')}
          </Button>
        </Box>
      )}
      <ConfirmDialog
        isOpen={confirming}
        title="pecflow.pec.notes.deleteTitle"
        content="pecflow.pec.notes.deleteText"
        contentTranslateOptions={{ date: formatDateTime(deleting?.createdAt), excerpt: excerptOf(deleting?.body ?? '') }}
        confirm="pecflow.settings.confirm.confirm"
        cancel="pecflow.settings.confirm.cancel"
        ConfirmIcon={DeleteMark}
        destructive
        onConfirm={() => deleting && void removeNote(deleting)}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** A note's beginning, on one line: what the confirmation names. */
const EXCERPT_MAX = 80;
const excerptOf = (body: string) => {
  const line = body.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT_MAX ? `${line.slice(0, EXCERPT_MAX - 1).trimEnd()}…` : line;
};

/** A note's element id: where a mention's link (?note=34, the bell) leads. */
const noteElementId = (note: NoteRecord) => `pec-note-${idFromReference(note.id, NOTES)}`;

/**
 * Opened from a mention (/pec/12?note=34): once the notes are read, that note is scrolled to and takes the focus, and
 * the parameter leaves the address (the next file, j / k, opens at its top).
 */
function useNoteFromLink(reading: boolean) {
  const [params, setParams] = useSearchParams();
  const target = params.get(NOTE_LINK_PARAM);
  useEffect(() => {
    if (!target || reading) return;
    const note = document.getElementById(`pec-note-${target}`);
    note?.scrollIntoView({ block: 'center' });
    note?.focus({ preventScroll: true });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(NOTE_LINK_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [target, reading, setParams]);
}

function NoteItem({ note, changeable, onChanged, onDelete }: { note: NoteRecord; changeable: boolean; onChanged: () => unknown; onDelete: () => void }) {
  const translate = useTranslate();
  const { success, failure } = usePecMutation();
  const [editing, setEditing] = useState<string | undefined>();
  const [update] = useUpdate();
  const open = changeable && noteEditable(note.createdAt);
  const save = async (body: string) => {
    try {
      await update(NOTES, { id: note.id, data: { body }, previousData: note }, { returnPromise: true });
      setEditing(undefined);
      success(translate('pecflow.pec.notes.saved'));
      void onChanged();
    } catch (error) {
      failure(translate('pecflow.pec.notes.error'), error);
    }
  };
  const when = new Date(note.createdAt);
  const editedAt = noteEditedAt(note);
  return (
    <ListItem
      disableGutters
      divider
      data-testid="pec-note"
      id={noteElementId(note)}
      // Focused by a mention's link only, not a Tab stop; its ring shows which note the link meant.
      tabIndex={-1}
      sx={{ display: 'block', '&:focus': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 } }}
    >
      <ListItemText
        primary={
          editing === undefined ? (
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
              {note.body}
            </Typography>
          ) : (
            <TextField
              multiline
              fullWidth
              size="small"
              autoFocus
              label={translate('pecflow.pec.notes.editLabel')}
              value={editing}
              onChange={(event) => setEditing(event.target.value.slice(0, NOTE_MAX))}
              // Échap leaves the edit (the note as it was), not the drawer.
              onKeyDown={(event) => {
                if (event.key !== 'Escape') return;
                event.stopPropagation();
                setEditing(undefined);
              }}
            />
          )
        }
        // A note changed says so, and when: the time beside it is when it was first written.
        secondary={`${note.author ? nameOf(note.author) : translate('pecflow.pec.notes.unknownAuthor')} · ${formatDate(note.createdAt)} ${when.toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit' })}${editedAt ? ` · ${translate('pecflow.pec.notes.edited', { date: formatDateTime(editedAt) })}` : ''}`}
      />
      {/* An edit begun inside the 15 minutes keeps its buttons: the server then says the note can no longer change. */}
      {(open || editing !== undefined) && (
        <Stack direction="row" spacing={1}>
          {editing === undefined ? (
            <>
              <Button size="small" onClick={() => setEditing(note.body)}>
                {translate('pecflow.pec.notes.edit')}
              </Button>
              <Button size="small" color="error" onClick={onDelete}>
                {translate('pecflow.pec.notes.delete')}
              </Button>
            </>
          ) : (
            <>
              <Button size="small" onClick={() => void save(editing)}>
                {translate('pecflow.pec.notes.save')}
              </Button>
              <Button size="small" onClick={() => setEditing(undefined)}>
                {translate('pecflow.pec.notes.cancelEdit')}
              </Button>
            </>
          )}
        </Stack>
      )}
    </ListItem>
  );
}
