// A file's documents in its drawer (issue 29): the list (react-admin's ReferenceManyField + DataTable over
// /api/pec_documents?dossier=…) with kind chips, size and who added them when; adding files (./DocumentUploader) by drag and drop or the
// chooser, several at once, a kind per file or one for all, each with its progress and the server's refusal;
// the preview in the drawer (a PDF in a frame, an image) from the bytes read with the session's token, named by the
// document's own name and closed by Échap (the drawer stays, the focus goes back to its eye button); download under the
// original name; deletion behind a confirmation. Writes are data-provider methods (useMutation, useDelete);
// one refresh of everything PEC follows (the file's warnings count its documents). An archived file (issue 25) is
// read only: its documents are listed, previewed and downloaded, none added or deleted.
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import DownloadIcon from '@mui/icons-material/DownloadOutlined';
import PreviewIcon from '@mui/icons-material/VisibilityOutlined';
import { Alert, Box, Chip, CircularProgress, IconButton, LinearProgress, Stack, Tooltip, Typography, type ChipProps } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { DataTable, ReferenceManyField, useDelete } from 'react-admin';
import { ConfirmDialog, DeleteMark } from '../admin/ConfirmDialog';
import { LAYER_KEYS, pressed } from '../admin/keys';
import { PEC_DOCUMENTS_RESOURCE, pecIri, type PecDocumentRecord } from '../dataProvider/pec';
import { WIDE_ONLY_COLUMN } from '../layout/rowStyles';
import { ROBOT_AUTHOR, type DocumentKind } from '#domain/documents';
import { formatDateTime, formatFileSize } from '#domain/format';
import { useErrorText, usePecMutation, usePecRights } from './shared';
import { DocumentUploader, kindLabel } from './DocumentUploader';

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
/** A kind's label; the code itself for a kind this build does not know. */
const personOf = (value: PecDocumentRecord['createdBy']) =>
  value && typeof value === 'object' ? [value.firstName, value.lastName].filter(Boolean).join(' ') || null : null;

const isPreviewable = (document: PecDocumentRecord) => document.mimeType === 'application/pdf' || document.mimeType.startsWith('image/');

export function DocumentsTab({ id, archived }: { id: number; archived: boolean }) {
  const { translate } = usePecMutation();
  const may = usePecRights({ archived }).documents;
  const [previewing, setPreviewing] = useState<PecDocumentRecord | undefined>();
  // The eye button that opened the preview: closing it gives the focus back there, not to the page.
  const opener = useRef<HTMLElement | null>(null);
  const [deleting, setDeleting] = useState<PecDocumentRecord | undefined>();
  const label = (key: string) => translate(`pecflow.pec.documents.${key}`);
  const preview = (document: PecDocumentRecord, button: HTMLElement) => {
    opener.current = button;
    setPreviewing(document);
  };
  const closePreview = () => {
    setPreviewing(undefined);
    opener.current?.focus();
  };

  return (
    <Stack
      spacing={2}
      data-testid="pec-documents"
      // Échap closes the preview, not the drawer (its Modal reads the key further up); once it is closed, the drawer.
      onKeyDown={(event) => {
        if (!previewing || !pressed(event, LAYER_KEYS.close)) return;
        event.stopPropagation();
        closePreview();
      }}
    >
      {may.create && <DocumentUploader dossier={pecIri(id)} />}
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
              // A phone shows the kind under the name (KindChip there), the actions in view beside them.
              {...WIDE_ONLY_COLUMN}
              render={(d: PecDocumentRecord) => <KindChip kind={d.kind} testId="pec-document-kind" />}
            />
            <DataTable.Col
              source="originalName"
              label={label('name')}
              disableSort
              render={(d: PecDocumentRecord) => (
                <Stack spacing={0.5} alignItems="flex-start">
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid="pec-document-name">
                    {d.originalName}
                  </Typography>
                  <Box sx={{ display: { sm: 'none' } }}>
                    <KindChip kind={d.kind} testId="pec-document-kind-phone" />
                  </Box>
                </Stack>
              )}
            />
            <DataTable.Col
              source="size"
              label={label('size')}
              disableSort
              // A phone shows the kind, the name and the actions: the name is read on a line or two, the actions in view.
              {...WIDE_ONLY_COLUMN}
              align="right"
              cellSx={oneLine}
              render={(d: PecDocumentRecord) => formatFileSize(d.size)}
            />
            <DataTable.Col
              source="createdAt"
              label={label('addedBy')}
              disableSort
              {...WIDE_ONLY_COLUMN}
              render={(d: PecDocumentRecord) => (
                <Stack spacing={0}>
                  <span>{d.source === 'robot' ? ROBOT_AUTHOR : (personOf(d.createdBy) ?? label('nobody'))}</span>
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
              render={(d: PecDocumentRecord) => <DocumentActions document={d} onPreview={preview} onDelete={may.delete ? setDeleting : undefined} />}
            />
          </DataTable>
        </Box>
      </ReferenceManyField>
      {previewing && <DocumentPreview key={previewing.id} document={previewing} onClose={closePreview} />}
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

/** A document's kind, in its colour. */
function KindChip({ kind, testId }: { kind: string; testId: string }) {
  return <Chip size="small" label={kindLabel(kind)} color={KIND_COLORS[kind as DocumentKind] ?? 'default'} data-testid={testId} />;
}

function DocumentActions({
  document,
  onPreview,
  onDelete,
}: {
  document: PecDocumentRecord;
  onPreview: (document: PecDocumentRecord, opener: HTMLElement) => void;
  onDelete?: (document: PecDocumentRecord) => void;
}) {
  const { translate } = usePecMutation();
  const name = { name: document.originalName };
  return (
    <>
      {isPreviewable(document) && (
        <Tooltip title={translate('pecflow.pec.documents.preview')}>
          <IconButton
            size="small"
            aria-label={translate('pecflow.pec.documents.previewNamed', name)}
            onClick={(event) => onPreview(document, event.currentTarget)}
          >
            <PreviewIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <DownloadButton document={document} />
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

/** 'Télécharger': the document saved under its original name. */
function DownloadButton({ document }: { document: PecDocumentRecord }) {
  const { translate, dataProvider, failure } = usePecMutation();
  const save = useMutation({
    mutationFn: () => dataProvider.pecDocumentDownload(document),
    onError: (error) => failure(translate('pecflow.pec.documents.downloadError'), error),
  });
  return (
    <Tooltip title={translate('pecflow.pec.documents.download')}>
      <span>
        <IconButton
          size="small"
          aria-label={translate('pecflow.pec.documents.downloadNamed', { name: document.originalName })}
          onClick={() => save.mutate()}
          disabled={save.isPending}
        >
          {save.isPending ? <CircularProgress size={18} /> : <DownloadIcon fontSize="small" />}
        </IconButton>
      </span>
    </Tooltip>
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
        <DownloadButton document={document} />
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

/**
 * The bytes through a blob URL made once for them, let go when the element goes: a PDF in a frame, an image as itself.
 * The PDF viewer's bar (print, zoom, pages) stays, though it names the document by its blob (« 21aa485d-7… »): the
 * preview's title and its 'Télécharger' above the frame give the real name.
 */
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
    <ConfirmDialog
      isOpen={!!document}
      loading={isPending}
      title="pecflow.pec.documents.deleteTitle"
      content="pecflow.settings.confirm.textNamed"
      contentTranslateOptions={{ name: document?.originalName ?? '' }}
      confirm="pecflow.settings.confirm.confirm"
      cancel="pecflow.settings.confirm.cancel"
      ConfirmIcon={DeleteMark}
      destructive
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
