// A file's documents in its drawer (issue 29): the list (react-admin's ReferenceManyField + DataTable over
// /api/pec_documents?dossier=…) with kind chips, size and who added them when; adding files by drag and drop or the
// chooser, several at once, a kind per file or one for all, each with its progress and the server's refusal;
// the preview in the drawer (a PDF in a frame, an image) from the bytes read with the session's token; download
// under the original name; deletion behind a confirmation. Writes are data-provider methods (useMutation, useDelete);
// one refresh of everything PEC follows (the file's warnings count its documents).
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import PreviewIcon from '@mui/icons-material/VisibilityOutlined';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  LinearProgress,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
  type ChipProps,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState, type DragEvent } from 'react';
import { Confirm, DataTable, ReferenceManyField, useDelete } from 'react-admin';
import { PEC_DOCUMENTS_RESOURCE, pecIri, type PecDocumentRecord } from '../dataProvider/pec';
import { DOCUMENT_KIND_LABELS, DOCUMENT_KINDS, DOCUMENT_MIME_TYPES, type DocumentKind } from '#domain/documents';
import { formatDateTime, formatFileSize } from '#domain/format';
import { useErrorText, usePecMutation, usePecRights } from './shared';

const SORT = { field: 'createdAt', order: 'ASC' } as const;
const oneLine = () => ({ whiteSpace: 'nowrap' }) as const;
/** The preview's bytes: one document at a time, let go a minute after it is closed. */
const CONTENT_KEY = 'pec_document_content';
const CONTENT_GC_MS = 60_000;

const KIND_COLORS: Partial<Record<DocumentKind, ChipProps['color']>> = {
  prescription: 'primary',
  standard_quote: 'info',
  agreement: 'success',
  invoice: 'secondary',
  insurer_letter: 'warning',
};
/** The kinds a person chooses when adding a file: the summary is printed by Pecflow itself. */
const UPLOAD_KINDS = DOCUMENT_KINDS.filter((kind) => kind !== 'summary');
/** A kind's label; the code itself for a kind this build does not know. */
const kindLabel = (kind: string) => DOCUMENT_KIND_LABELS[kind as DocumentKind] ?? kind;

const personOf = (value: PecDocumentRecord['createdBy']) =>
  value && typeof value === 'object' ? [value.firstName, value.lastName].filter(Boolean).join(' ') || null : null;

const isPreviewable = (document: PecDocumentRecord) => document.mimeType === 'application/pdf' || document.mimeType.startsWith('image/');

export function DocumentsTab({ id }: { id: number }) {
  const { translate } = usePecMutation();
  const rights = usePecRights();
  const [previewing, setPreviewing] = useState<PecDocumentRecord | undefined>();
  const [deleting, setDeleting] = useState<PecDocumentRecord | undefined>();
  const label = (key: string) => translate(`pecflow.pec.documents.${key}`);

  return (
    <Stack spacing={2} data-testid="pec-documents">
      {rights.documents.create && <DocumentUploader dossier={pecIri(id)} />}
      <ReferenceManyField
        reference={PEC_DOCUMENTS_RESOURCE}
        target="dossier"
        record={{ id: pecIri(id) }}
        sort={SORT}
        perPage={100}
        empty={
          <Typography variant="body2" color="text.secondary" data-testid="pec-documents-empty">
            {label('empty')}
          </Typography>
        }
      >
        <Box sx={{ overflowX: 'auto' }}>
          <DataTable bulkActionButtons={false} rowClick={false} size="small">
            <DataTable.Col
              source="kind"
              label={label('kind')}
              disableSort
              render={(d: PecDocumentRecord) => (
                <Chip size="small" label={kindLabel(d.kind)} color={KIND_COLORS[d.kind as DocumentKind] ?? 'default'} data-testid="pec-document-kind" />
              )}
            />
            <DataTable.Col
              source="originalName"
              label={label('name')}
              disableSort
              render={(d: PecDocumentRecord) => (
                <Typography variant="body2" sx={{ wordBreak: 'break-all' }} data-testid="pec-document-name">
                  {d.originalName}
                </Typography>
              )}
            />
            <DataTable.Col
              source="size"
              label={label('size')}
              disableSort
              align="right"
              cellSx={oneLine}
              render={(d: PecDocumentRecord) => formatFileSize(d.size)}
            />
            <DataTable.Col
              source="createdAt"
              label={label('addedBy')}
              disableSort
              render={(d: PecDocumentRecord) => (
                <Stack spacing={0}>
                  <span>{personOf(d.createdBy) ?? label('nobody')}</span>
                  <Typography variant="caption" color="text.secondary" sx={oneLine()}>
                    {formatDateTime(d.createdAt)}
                  </Typography>
                </Stack>
              )}
            />
            <DataTable.Col
              label={label('actions')}
              disableSort
              cellSx={oneLine}
              render={(d: PecDocumentRecord) => (
                <DocumentActions document={d} onPreview={setPreviewing} onDelete={rights.documents.delete ? setDeleting : undefined} />
              )}
            />
          </DataTable>
        </Box>
      </ReferenceManyField>
      {previewing && <DocumentPreview key={previewing.id} document={previewing} onClose={() => setPreviewing(undefined)} />}
      <DeleteDialog
        document={deleting}
        onClose={() => setDeleting(undefined)}
        onDeleted={(document) => {
          if (previewing?.id === document.id) setPreviewing(undefined);
        }}
      />
    </Stack>
  );
}

function DocumentActions({
  document,
  onPreview,
  onDelete,
}: {
  document: PecDocumentRecord;
  onPreview: (document: PecDocumentRecord) => void;
  onDelete?: (document: PecDocumentRecord) => void;
}) {
  const { translate, dataProvider, failure } = usePecMutation();
  const name = { name: document.originalName };
  const save = useMutation({
    mutationFn: () => dataProvider.pecDocumentDownload(document),
    onError: (error) => failure(translate('pecflow.pec.documents.downloadError'), error),
  });
  return (
    <>
      {isPreviewable(document) && (
        <Tooltip title={translate('pecflow.pec.documents.preview')}>
          <IconButton size="small" aria-label={translate('pecflow.pec.documents.previewNamed', name)} onClick={() => onPreview(document)}>
            <PreviewIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <Tooltip title={translate('pecflow.pec.documents.download')}>
        <span>
          <IconButton size="small" aria-label={translate('pecflow.pec.documents.downloadNamed', name)} onClick={() => save.mutate()} disabled={save.isPending}>
            {save.isPending ? <CircularProgress size={18} /> : <DownloadIcon fontSize="small" />}
          </IconButton>
        </span>
      </Tooltip>
      {onDelete && (
        <Tooltip title={translate('pecflow.pec.documents.delete')}>
          <IconButton size="small" color="error" aria-label={translate('pecflow.pec.documents.deleteNamed', name)} onClick={() => onDelete(document)}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}

/** The document shown in the drawer from its bytes (read once with the token): a PDF in a frame, an image as itself. */
function DocumentPreview({ document, onClose }: { document: PecDocumentRecord; onClose: () => void }) {
  const { translate, dataProvider } = usePecMutation();
  const errorText = useErrorText();
  const content = useQuery({
    queryKey: [CONTENT_KEY, document.id],
    queryFn: () => dataProvider.pecDocumentContent(document),
    staleTime: Infinity,
    gcTime: CONTENT_GC_MS,
    retry: false,
  });
  const title = translate('pecflow.pec.documents.previewTitle', { name: document.originalName });
  return (
    <Box component="section" aria-label={title} data-testid="pec-document-preview" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flex: 1, wordBreak: 'break-all' }}>
          {title}
        </Typography>
        <IconButton size="small" aria-label={translate('pecflow.pec.documents.closePreview')} onClick={onClose}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {content.error ? (
        <Alert severity="error">{errorText(content.error)}</Alert>
      ) : !content.data ? (
        <LinearProgress aria-label={translate('pecflow.pec.documents.previewLoading')} />
      ) : (
        <Shown blob={content.data} title={title} name={document.originalName} />
      )}
    </Box>
  );
}

/** The bytes through a blob URL made once for them, let go when the element goes: a PDF in a frame, an image as itself. */
function Shown({ blob, title, name }: { blob: Blob; title: string; name: string }) {
  const source = useCallback(
    (element: HTMLIFrameElement | HTMLImageElement | null) => {
      if (!element) return;
      const url = URL.createObjectURL(blob);
      element.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [blob],
  );
  return blob.type === 'application/pdf' ? (
    <Box component="iframe" ref={source} title={title} sx={{ width: '100%', height: 560, border: 0 }} data-testid="pec-document-frame" />
  ) : (
    <Box component="img" ref={source} alt={name} sx={{ maxWidth: '100%', display: 'block', mx: 'auto' }} />
  );
}

/** 'Supprimer' behind the confirmation; the server's refusal (an agreement on a billed file) in the toast. */
function DeleteDialog({
  document,
  onClose,
  onDeleted,
}: {
  document: PecDocumentRecord | undefined;
  onClose: () => void;
  onDeleted: (document: PecDocumentRecord) => void;
}) {
  const { translate, refresh, success, failure } = usePecMutation();
  const [remove, { isPending }] = useDelete<PecDocumentRecord>();
  return (
    <Confirm
      isOpen={!!document}
      loading={isPending}
      title="pecflow.pec.documents.deleteTitle"
      content="pecflow.settings.confirm.textNamed"
      contentTranslateOptions={{ name: document?.originalName ?? '' }}
      confirm="pecflow.settings.confirm.confirm"
      cancel="pecflow.settings.confirm.cancel"
      confirmColor="warning"
      onClose={onClose}
      onConfirm={() =>
        document &&
        remove(
          PEC_DOCUMENTS_RESOURCE,
          { id: document.id, previousData: document },
          {
            onSuccess: () => {
              success(translate('pecflow.pec.documents.deleted'), document.originalName);
              onDeleted(document);
              onClose();
              void refresh.now();
            },
            onError: (error) => failure(translate('pecflow.pec.documents.deleteError'), error),
          },
        )
      }
    />
  );
}

// ---------- adding files ----------

interface Pending {
  key: string;
  file: File;
  kind: DocumentKind | '';
  /** From 0 to 1 while it is sent. */
  progress?: number;
  error?: string;
}

let nextKey = 0;

function DocumentUploader({ dossier }: { dossier: string }) {
  const { translate, dataProvider, refresh, success } = usePecMutation();
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState(false);
  const label = (key: string, options?: Record<string, unknown>) => translate(`pecflow.pec.documents.${key}`, options);

  const change = (key: string, patch: Partial<Pending>) => setPending((items) => items.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const added = Array.from(files, (file) => ({ key: String((nextKey += 1)), file, kind: '' as const }));
    setPending((items) => [...items, ...added]);
  };

  const upload = useMutation({
    mutationKey: [PEC_DOCUMENTS_RESOURCE, 'upload', dossier],
    mutationFn: (item: Pending) =>
      dataProvider.pecDocumentUpload({ dossier, file: item.file, kind: item.kind, onProgress: (sent) => change(item.key, { progress: sent }) }),
  });

  /** One file after the other: each shows its progress, a refused one keeps its message and stays to be corrected. */
  const sendAll = async () => {
    let sent = 0;
    setSending(true);
    for (const item of pending.filter((p) => p.kind !== '')) {
      change(item.key, { progress: 0, error: undefined });
      try {
        await upload.mutateAsync(item);
        sent += 1;
        setPending((items) => items.filter((p) => p.key !== item.key));
      } catch (error) {
        change(item.key, { progress: undefined, error: errorText(error) });
      }
    }
    setSending(false);
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

  const ready = pending.length > 0 && pending.every((p) => p.kind !== '');
  return (
    <Stack spacing={1.5}>
      <Box
        component="button"
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
        </Typography>
      </Box>
      <input
        ref={input}
        type="file"
        multiple
        hidden
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
              sx={{ border: 1, borderColor: item.error ? 'error.main' : 'divider', borderRadius: 1, p: 1 }}
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
                  disabled={item.progress !== undefined}
                  onChange={(kind) => change(item.key, { kind, error: undefined })}
                />
                <IconButton
                  size="small"
                  aria-label={label('removeNamed', { name: item.file.name })}
                  disabled={item.progress !== undefined}
                  onClick={() => setPending((items) => items.filter((p) => p.key !== item.key))}
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
              {item.error && (
                <Alert severity="error" sx={{ mt: 1, whiteSpace: 'pre-line' }} data-testid="pec-document-error">
                  {item.error}
                </Alert>
              )}
            </Box>
          ))}
          <Stack direction="row" spacing={1} justifyContent="flex-end">
            <Button onClick={() => setPending([])} disabled={sending}>
              {label('clear')}
            </Button>
            <Button variant="contained" startIcon={<UploadIcon />} onClick={() => void sendAll()} disabled={!ready || sending} data-testid="pec-document-send">
              {label('send', { smart_count: pending.length })}
            </Button>
          </Stack>
          {!ready && !sending && (
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
      sx={{ minWidth: 240 }}
    >
      {UPLOAD_KINDS.map((kind) => (
        <MenuItem key={kind} value={kind}>
          {kindLabel(kind)}
        </MenuItem>
      ))}
    </TextField>
  );
}
