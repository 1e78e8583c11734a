// Actions on the selected rows, through the bulk API (all or nothing): Activer / Désactiver with the update
// permission (entities with a status), Supprimer with the delete permission behind the one confirmation dialog (ConfirmDialog).
import { Button, Typography } from '@mui/material';
import type { Resource } from '@api-platform/api-doc-parser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDeleteMany, useListContext, useTranslate, useUpdateMany, type Identifier } from 'react-admin';
import { ConfirmDialog, DeleteMark } from '../admin/ConfirmDialog';
import type { AdminEntity } from '../dataProvider/adminSchema';
import { useMutationToasts, WRITE_RETRY } from '../admin/mutations';
import { useNouns } from './nouns';

interface Props {
  entity: AdminEntity;
  schema: Resource;
  rights: { update: boolean; delete: boolean };
  selectedIds: Identifier[];
}

export function BulkActions({ entity, schema, rights, selectedIds }: Props) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const toasts = useMutationToasts();
  const { onUnselectItems } = useListContext();
  const { say } = useNouns(entity.label);
  const [confirming, setConfirming] = useState(false);
  const [updateMany, { isPending: updating }] = useUpdateMany(entity.name, undefined, { returnPromise: true, ...WRITE_RETRY });
  const [deleteMany, { isPending: deleting }] = useDeleteMany(entity.name, undefined, { returnPromise: true, ...WRITE_RETRY });
  const busy = updating || deleting;
  const hasStatus = (schema.writableFields ?? []).some((f) => f.name === 'status');
  const count = selectedIds.length;

  const run = async (write: () => Promise<unknown>, successKey: string) => {
    try {
      await write();
    } catch (error) {
      toasts.failure(error);
      return;
    } finally {
      setConfirming(false);
    }
    await queryClient.invalidateQueries({ queryKey: [entity.name] });
    toasts.success(say(successKey, { smart_count: count }));
    onUnselectItems();
  };
  const setStatus = (status: string) => run(() => updateMany(entity.name, { ids: selectedIds, data: { status } }), 'toast.bulkUpdated');

  return (
    <>
      <Typography variant="body2" fontWeight={600} sx={{ mr: 1 }}>
        {say('list.selected', { smart_count: count })}
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
      <ConfirmDialog
        isOpen={confirming}
        loading={deleting}
        title={translate('pecflow.settings.confirm.titleMany', { smart_count: count })}
        content={translate('pecflow.settings.confirm.text')}
        confirm={translate('pecflow.settings.confirm.confirm')}
        cancel={translate('pecflow.settings.confirm.cancel')}
        ConfirmIcon={DeleteMark}
        destructive
        onConfirm={() => run(() => deleteMany(entity.name, { ids: selectedIds }), 'toast.bulkDeleted')}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
