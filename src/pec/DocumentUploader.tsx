// Adding files to a PEC file's documents (issue 29): drag and drop or the chooser, several at once, a kind per file
// or one for all, each sent with its progress (pecDocumentUpload, multipart) and the server's refusal kept under it.
// What removes or stills the control pressed leaves the focus in the uploader, never on the drawer or the page: a
// file removed gives it to the next file's « Retirer » (the previous one's, the drop zone when none is left), the list
// cleared or all its files added to the drop zone; « Ajouter » stays focusable while it sends (aria-disabled).
import CloseIcon from '@mui/icons-material/Close';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import { Alert, Box, Button, IconButton, LinearProgress, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { flushSync } from 'react-dom';
import { PEC_DOCUMENTS_RESOURCE } from '../dataProvider/pec';
import { DOCUMENT_KIND_LABELS, DOCUMENT_MESSAGES, DOCUMENT_MIME_TYPES, UPLOAD_KINDS, type DocumentKind } from '#domain/documents';
import { formatFileSize } from '#domain/format';
import { useErrorText, usePecMutation } from './shared';

export const kindLabel = (kind: string) => DOCUMENT_KIND_LABELS[kind as DocumentKind] ?? kind;

interface Pending {
  key: string;
  file: File;
  kind: DocumentKind | '';
  /** From 0 to 1 while it is sent. */
  progress?: number;
  /** What the browser knows of it (empty, not a PDF/JPEG/PNG, too large): it is never sent, only removed. */
  refusal?: string;
  /** The server's refusal of it: said until its type is changed or it is sent again. */
  error?: string;
}

let nextKey = 0;

export function DocumentUploader({ dossier }: { dossier: string }) {
  const { translate, dataProvider, refresh, success } = usePecMutation();
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const dropZone = useRef<HTMLButtonElement>(null);
  /** Each pending file's « Retirer », by its key. */
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState(false);
  const label = (key: string, options?: Record<string, unknown>) => translate(`pecflow.pec.documents.${key}`, options);

  const limits = useQuery({ queryKey: [PEC_DOCUMENTS_RESOURCE, 'limits'], queryFn: () => dataProvider.pecDocumentLimits(), staleTime: 10 * 60_000 });
  const maxBytes = limits.data?.maxBytes;
  /**
   * Once the control that had the focus is gone (the browser then gives it to the page, the drawer's trap to the
   * drawer: an element around the uploader), `target` takes it; a focus still on a control, here or elsewhere (another
   * field typed in during a send), stays there.
   */
  const refocus = (target: HTMLElement | null | undefined) => {
    const active = document.activeElement;
    if (!active || active.contains(root.current)) target?.focus();
  };
  /** Removes these files from the list, the focus given to the next one's « Retirer », else the drop zone. */
  const remove = (keys: string[]) => {
    const index = pending.findIndex((p) => keys.includes(p.key));
    const rest = pending.filter((p) => !keys.includes(p.key));
    const removable = (p: Pending | undefined) => p && p.progress === undefined;
    const next = [rest[index], rest[index - 1]].find(removable);
    flushSync(() => setPending(rest));
    refocus((next && removeButtons.current.get(next.key)) ?? dropZone.current);
  };
  const change = (key: string, patch: Partial<Pending>) => setPending((items) => items.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  const add = (files: FileList | null) => {
    if (!files?.length) return;
    // What the browser already knows is said at once (an empty file, a file of another type or over the size the
    // system setting allows); the server checks the content and the size again.
    const added = Array.from(files, (file) => ({
      key: String((nextKey += 1)),
      file,
      kind: '' as const,
      refusal:
        file.size === 0
          ? DOCUMENT_MESSAGES.fileEmpty
          : file.type && !DOCUMENT_MIME_TYPES.includes(file.type as never)
            ? DOCUMENT_MESSAGES.wrongType
            : maxBytes !== undefined && file.size > maxBytes
              ? DOCUMENT_MESSAGES.tooLarge(maxBytes / 1024 / 1024)
              : undefined,
    }));
    setPending((items) => [...items, ...added]);
  };

  const upload = useMutation({
    mutationKey: [PEC_DOCUMENTS_RESOURCE, 'upload', dossier],
    mutationFn: (item: Pending) =>
      dataProvider.pecDocumentUpload({ dossier, file: item.file, kind: item.kind, onProgress: (sent) => change(item.key, { progress: sent }) }),
  });

  // What can be sent: not the files the browser already refused (their message stays until they are removed).
  const sendable = pending.filter((p) => !p.refusal);
  const ready = sendable.length > 0 && sendable.every((p) => p.kind !== '');
  /** One file after the other: each shows its progress, a refused one keeps its message and stays to be corrected. */
  const sendAll = async () => {
    let sent = 0;
    setSending(true);
    for (const item of sendable.filter((p) => p.kind !== '')) {
      change(item.key, { progress: 0, error: undefined });
      try {
        await upload.mutateAsync(item);
        sent += 1;
        setPending((items) => items.filter((p) => p.key !== item.key));
      } catch (error) {
        change(item.key, { progress: undefined, error: errorText(error) });
      }
    }
    flushSync(() => setSending(false));
    // All added, the list and its « Ajouter » are gone: the drop zone, ready for more. Some refused: the focus stayed
    // on « Ajouter » (inert while sending), beside their messages.
    refocus(dropZone.current);
    if (sent > 0) {
      success(translate('pecflow.pec.documents.added', { smart_count: sent }));
      void refresh.now();
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!sending) add(event.dataTransfer.files);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    if (!dragging) setDragging(true);
  };

  return (
    <Stack spacing={1.5} ref={root}>
      <Box
        component="button"
        ref={dropZone}
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        disabled={sending}
        data-testid="pec-document-drop"
        sx={{
          width: '100%',
          p: 2.5,
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          bgcolor: dragging ? 'action.hover' : 'transparent',
          color: 'text.primary',
          font: 'inherit',
          cursor: 'pointer',
          textAlign: 'center',
          '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
          '&:disabled': { cursor: 'default', opacity: 0.6 },
        }}
      >
        <UploadIcon color="primary" />
        <Typography variant="body2" fontWeight={600}>
          {label('drop')}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {label('accepted')}
          {maxBytes !== undefined && ` · ${label('maxSize', { size: formatFileSize(maxBytes) })}`}
        </Typography>
      </Box>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        // Out of the drawer's focus trap (see src/pec/ImportDialog.tsx): the drop zone's button opens it.
        tabIndex={-1}
        accept={DOCUMENT_MIME_TYPES.join(',')}
        data-testid="pec-document-input"
        onChange={(event) => {
          add(event.target.files);
          event.target.value = '';
        }}
      />
      {pending.length > 0 && (
        <Stack spacing={1} component="section" aria-label={label('pending')} data-testid="pec-document-pending">
          {pending.length > 1 && (
            <KindSelect
              label={label('kindForAll')}
              value=""
              disabled={sending}
              onChange={(kind) => setPending((items) => items.map((item) => (item.progress === undefined ? { ...item, kind } : item)))}
            />
          )}
          {pending.map((item) => (
            <Box
              key={item.key}
              role="group"
              aria-label={item.file.name}
              sx={{ border: 1, borderColor: item.refusal || item.error ? 'error.main' : 'divider', borderRadius: 1, p: 1 }}
              data-testid="pec-document-pending-file"
            >
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                    {item.file.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {formatFileSize(item.file.size)}
                  </Typography>
                </Box>
                <KindSelect
                  label={label('kind')}
                  value={item.kind}
                  disabled={item.progress !== undefined || !!item.refusal}
                  onChange={(kind) => change(item.key, { kind, error: undefined })}
                />
                <IconButton
                  size="small"
                  ref={(button: HTMLButtonElement | null) => {
                    if (button) removeButtons.current.set(item.key, button);
                    else removeButtons.current.delete(item.key);
                  }}
                  aria-label={label('removeNamed', { name: item.file.name })}
                  disabled={item.progress !== undefined}
                  onClick={() => remove([item.key])}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Stack>
              {item.progress !== undefined && (
                <LinearProgress
                  variant="determinate"
                  value={Math.round(item.progress * 100)}
                  aria-label={label('progress', { name: item.file.name })}
                  sx={{ mt: 1 }}
                  data-testid="pec-document-progress"
                />
              )}
              {(item.refusal ?? item.error) && (
                <Alert severity="error" sx={{ mt: 1, whiteSpace: 'pre-line' }} data-testid="pec-document-error">
                  {item.refusal ?? item.error}
                </Alert>
              )}
            </Box>
          ))}
          <Stack direction="row" spacing={1} justifyContent="flex-end">
            <Button onClick={() => remove(pending.map((p) => p.key))} disabled={sending}>
              {label('clear')}
            </Button>
            <Button
              variant="contained"
              startIcon={<UploadIcon />}
              onClick={sending ? undefined : () => void sendAll()}
              disabled={!ready}
              aria-disabled={sending || undefined}
              data-testid="pec-document-send"
            >
              {label('send', { smart_count: sendable.length })}
            </Button>
          </Stack>
          {!ready && !sending && sendable.length > 0 && (
            <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'right' }}>
              {label('chooseKinds')}
            </Typography>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function KindSelect({
  label,
  value,
  disabled,
  onChange,
}: {
  label: string;
  value: DocumentKind | '';
  disabled?: boolean;
  onChange: (kind: DocumentKind) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value as DocumentKind)}
      // A fixed width beside a file's name: filling the row, it squeezed the name to one letter a line.
      sx={{ minWidth: 240, width: { xs: '100%', sm: 240 }, flexShrink: 0 }}
    >
      {UPLOAD_KINDS.map((kind) => (
        <MenuItem key={kind} value={kind}>
          {kindLabel(kind)}
        </MenuItem>
      ))}
    </TextField>
  );
}
