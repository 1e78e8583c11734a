// Actions on the selected rows, through the bulk API (all or nothing): Activer / Désactiver with the update
// permission, Supprimer with the delete permission behind the confirmation dialog.
import { Button, Paper, Stack, Typography } from '@mui/material';
import type { Resource } from '@api-platform/api-doc-parser';
import { useState } from 'react';
import { useDataProvider, useListContext, useTranslate } from 'react-admin';
import type { ResourceConfig } from '../resources/types';
import { ConfirmDelete } from './ConfirmDelete';
import { useNouns } from './nouns';
import { useWrite } from './useWrite';

interface Props {
  config: ResourceConfig;
  schema: Resource;
  rights: { update: boolean; delete: boolean };
}

export function BulkActions({ config, schema, rights }: Props) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const { selectedIds, onUnselectItems } = useListContext();
  const { say } = useNouns(config.name, config.feminine);
  const { write, busy } = useWrite(config.name);
  const [confirming, setConfirming] = useState(false);
  const hasStatus = (schema.writableFields ?? []).some((f) => f.name === 'status');

  if (selectedIds.length === 0) return null;

  const run = async (action: () => Promise<unknown>, successKey: string) => {
    const outcome = await write(action, say(successKey, { smart_count: selectedIds.length }));
    setConfirming(false);
    if (outcome.ok) onUnselectItems();
  };
  const setStatus = (status: string) => run(() => dataProvider.updateMany(config.name, { ids: selectedIds, data: { status } }), 'toast.bulkUpdated');

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1, mb: 1.5 }} data-testid="bulk-actions">
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Typography variant="body2" fontWeight={600} sx={{ mr: 1 }}>
          {say('list.selected', { smart_count: selectedIds.length })}
        </Typography>
        {rights.update && hasStatus && (
          <>
            <Button size="small" disabled={busy} onClick={() => setStatus('Active')}>
              {translate('pecflow.settings.list.activate')}
            </Button>
            <Button size="small" disabled={busy} onClick={() => setStatus('Inactive')}>
              {translate('pecflow.settings.list.deactivate')}
            </Button>
          </>
        )}
        {rights.delete && (
          <Button size="small" color="error" disabled={busy} onClick={() => setConfirming(true)}>
            {translate('pecflow.settings.list.delete')}
          </Button>
        )}
      </Stack>
      <ConfirmDelete
        open={confirming}
        count={selectedIds.length}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => run(() => dataProvider.deleteMany(config.name, { ids: selectedIds }), 'toast.bulkDeleted')}
      />
    </Paper>
  );
}
