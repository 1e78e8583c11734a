// The one drawer of the back-office entities (spec section 2, "Drawer form"): right side, full screen on small
// screens, "Nouveau {singulier}" or "Modifier {singulier}" with "ID: {id}", the form, or a read-only view when the
// API offers no edit operation (the audit trail).
import CloseIcon from '@mui/icons-material/Close';
import { Alert, Box, Drawer, IconButton, Skeleton, Typography } from '@mui/material';
import type { Resource } from '@api-platform/api-doc-parser';
import { RecordContextProvider, useGetOne, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { ResourceConfig } from '../resources/types';
import { Cell } from './cells';
import { useNouns } from './nouns';
import { DrawerHeader } from './DrawerHeader';
import { ResourceForm } from './ResourceForm';
import { hasOperation } from './schema';

interface Props {
  config: ResourceConfig;
  schema: Resource;
  open: boolean;
  /** 'create', or the id (IRI) of the record to edit. */
  target?: Identifier | 'create';
  onClose: () => void;
  /** After the closing animation: the form is then unmounted, so it starts afresh next time. */
  onExited: () => void;
}

export function ResourceDrawer({ config, schema, open, target, onClose, onExited }: Props) {
  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={onClose}
      slotProps={{
        paper: { sx: { width: { xs: '100%', sm: 720 }, maxWidth: '100%' }, 'data-testid': 'resource-drawer' } as object,
        transition: { onExited },
      }}
    >
      {target !== undefined && <DrawerContent key={String(target)} config={config} schema={schema} target={target} onClose={onClose} />}
    </Drawer>
  );
}

function DrawerContent({ config, schema, target, onClose }: { config: ResourceConfig; schema: Resource; target: Identifier | 'create'; onClose: () => void }) {
  const translate = useTranslate();
  const { singular, say } = useNouns(config.name, config.feminine);
  const creating = target === 'create';
  const { data: record, isPending, error } = useGetOne(config.name, { id: creating ? '' : target }, { enabled: !creating });
  const editable = hasOperation(schema, 'edit');
  const title = creating ? say('form.create') : translate(editable ? 'pecflow.settings.form.edit' : 'pecflow.settings.form.show', { singular: singular.toLowerCase() });
  const numericId = record?.originId ?? record?.id;

  const heading = (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="h6" component="h2" fontWeight={700}>
        {title}
      </Typography>
      {!creating && record && (
        <Typography variant="body2" color="text.secondary" data-testid="drawer-id">
          {translate('pecflow.settings.form.id', { id: String(numericId) })}
        </Typography>
      )}
    </Box>
  );
  const closeButton = (
    <IconButton onClick={onClose} aria-label={translate('pecflow.settings.form.close')} edge="end">
      <CloseIcon />
    </IconButton>
  );

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', '& > form': { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 } }}
      role="dialog"
      aria-label={title}
    >
      {error ? (
        <>
          <DrawerHeader heading={heading} actions={closeButton} />
          <Alert severity="error" sx={{ m: 3 }}>
            {translate('pecflow.settings.form.loadError')}
          </Alert>
        </>
      ) : !creating && (isPending || !record) ? (
        <>
          <DrawerHeader heading={heading} actions={closeButton} />
          <Box sx={{ p: 3 }}>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} height={56} />
            ))}
          </Box>
        </>
      ) : editable ? (
        <ResourceForm config={config} schema={schema} mode={creating ? 'create' : 'edit'} record={record} heading={heading} onDone={onClose} />
      ) : (
        <>
          <DrawerHeader heading={heading} actions={closeButton} />
          <ReadOnlyView config={config} schema={schema} record={record!} />
        </>
      )}
    </Box>
  );
}

/** Every readable field with its French label. */
function ReadOnlyView({ config, schema, record }: { config: ResourceConfig; schema: Resource; record: RaRecord }) {
  const translate = useTranslate();
  return (
    <RecordContextProvider value={record}>
      <Box component="dl" sx={{ px: 3, py: 2, m: 0, overflowY: 'auto' }}>
        {(schema.readableFields ?? []).map((field) => {
          const Show = config.show?.[field.name];
          return (
            <Box key={field.name} sx={{ mb: 2 }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {translate(`resources.${config.name}.fields.${field.name}`, { _: field.name })}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {Show ? <Show record={record} /> : <Cell column={config.columns.find((c) => c.source === field.name) ?? { source: field.name }} record={record} schema={schema} />}
              </Typography>
            </Box>
          );
        })}
      </Box>
    </RecordContextProvider>
  );
}
