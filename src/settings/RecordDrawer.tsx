// The drawer of the generated screens (spec section 2, "Drawer form"), in the one drawer frame: 'Nouveau {singulier}'
// or 'Modifier {singulier}' with 'ID: {id}' (the browser's tab adds the record's name), the generated form, or a
// read-only view for entities opened to view (the audit trail). The record is fetched fresh when the drawer opens (a
// save elsewhere may have changed it: the previous default network), so what it shows is what the server holds.
import { Alert, Box, Skeleton, Typography } from '@mui/material';
import type { Resource } from '@api-platform/api-doc-parser';
import { RecordContextProvider, useGetOne, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { itemPath } from '../dataProvider';
import type { AdminEntity } from '../dataProvider/adminSchema';
import { hasOperation } from '../admin/docs';
import type { Particular } from '../resources/types';
import { Cell } from '../admin/cells';
import { GeneratedForm } from './GeneratedForm';
import { useLast } from './GeneratedScreen';
import { ownName, recordNumber, useNouns } from './nouns';

interface RecordDrawerProps {
  entity: AdminEntity;
  particular: Particular;
  schema: Resource;
  /** 'create', the id of the record (from the URL), or nothing: closed. */
  target: Identifier | 'create' | undefined;
  onClose: () => void;
}

export function RecordDrawer({ target, ...props }: RecordDrawerProps) {
  const shown = useLast(target);
  // One drawer per record: its record is read afresh each time it opens.
  return <RecordContent key={String(shown)} {...props} shown={shown} open={target !== undefined} />;
}

function RecordContent({
  entity,
  particular,
  schema,
  shown,
  open,
  onClose,
}: Omit<RecordDrawerProps, 'target'> & { shown: RecordDrawerProps['target']; open: boolean }) {
  const translate = useTranslate();
  const { singular, say } = useNouns(entity.label);
  const creating = shown === 'create';
  const id = shown === undefined || creating ? '' : itemPath(entity.name, shown);
  const { data: record, error, isFetchedAfterMount } = useGetOne(entity.name, { id }, { enabled: !!id, refetchOnMount: 'always' });
  const editable = hasOperation(schema, 'edit') && entity.form?.openIn !== 'view';
  const title = creating
    ? say('form.create')
    : translate(editable ? 'pecflow.settings.form.edit' : 'pecflow.settings.form.show', { singular: singular.toLowerCase() });
  const subtitle = !creating && record ? translate('pecflow.settings.form.id', { id: String(record.originId ?? shown) }) : undefined;
  // The tab names the record, by the name its delete confirmation gives it (else its number), once it is read.
  const name = record && !creating ? ownName(record) : undefined;
  const tabTitle =
    !record || creating
      ? title
      : name
        ? translate('pecflow.settings.form.tabNamed', { title, name })
        : translate('pecflow.settings.form.tabNumbered', { title, number: recordNumber(record) });
  const frame = { open, onClose, title, tabTitle, subtitle };

  const placeholder =
    shown === undefined ? (
      <></>
    ) : error ? (
      <Alert severity="error">{translate('pecflow.settings.form.loadError')}</Alert>
    ) : !creating && (!record || !isFetchedAfterMount) ? (
      Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={56} />)
    ) : !editable ? (
      <ReadOnlyView entity={entity} particular={particular} schema={schema} record={record!} />
    ) : undefined;
  return <GeneratedForm entity={entity} schema={schema} mode={creating ? 'create' : 'edit'} record={record} frame={frame} placeholder={placeholder} />;
}

/** Every readable field with its French label. */
function ReadOnlyView({ entity, particular, schema, record }: { entity: AdminEntity; particular: Particular; schema: Resource; record: RaRecord }) {
  return (
    <RecordContextProvider value={record}>
      <Box component="dl" sx={{ m: 0 }}>
        {(schema.readableFields ?? []).map((field) => {
          const Show = particular.show?.[field.name];
          return (
            <Box key={field.name} sx={{ mb: 2 }}>
              <Typography component="dt" variant="caption" color="text.secondary">
                {entity.fields[field.name]?.label ?? field.name}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                {Show ? <Show record={record} /> : <Cell entity={entity} particular={particular} schema={schema} column={field.name} record={record} />}
              </Typography>
            </Box>
          );
        })}
      </Box>
    </RecordContextProvider>
  );
}
