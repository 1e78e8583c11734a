// The users list's side of accounts (issue 26): the invitation's state beside the account's status, with 'Renvoyer
// l'invitation' (no form code: the list loads it without react-hook-form or zod).
import { Button, Chip, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate, type RaRecord } from 'react-admin';
import { INVITATION_LINK_DAYS } from '#domain/accounts';
import type { AppDataProvider } from '../../dataProvider';
import { useMutationToasts, WRITE_RETRY } from '../../admin/mutations';
import { EntityStatus } from '../../admin/cells';

/** Invitation pending, and whether its 7-day link has expired. */
export function invitationOf(record: RaRecord): 'sent' | 'expired' | undefined {
  if (typeof record.invitationSentAt !== 'string') return undefined;
  return Date.now() - new Date(record.invitationSentAt).getTime() > INVITATION_LINK_DAYS * 86_400_000 ? 'expired' : 'sent';
}

function useInvite(record: RaRecord) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const toasts = useMutationToasts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => dataProvider.userInvite(record.id),
    ...WRITE_RETRY,
    onSuccess: async () => {
      toasts.success(translate('pecflow.account.users.resent', { email: String(record.email ?? '') }), translate('pecflow.account.users.invitationSent'));
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
    onError: (error) => toasts.failure(error),
  });
}

/** 'Renvoyer l'invitation', in the list's row (without opening the drawer) and in the drawer. */
export function ResendInvitation({ record, size = 'small' }: { record: RaRecord; size?: 'small' | 'medium' }) {
  const translate = useTranslate();
  const invite = useInvite(record);
  return (
    <Button
      size={size}
      variant={size === 'small' ? 'text' : 'outlined'}
      disabled={invite.isPending}
      onClick={(event) => {
        event.stopPropagation();
        invite.mutate();
      }}
    >
      {translate('pecflow.account.users.resend')}
    </Button>
  );
}

/** The list's status: the account's status, and its invitation while the user has not chosen a password. */
export function UserStatusCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const invitation = invitationOf(record);
  return (
    <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
      <EntityStatus collection="users" status={record.status} />
      {invitation && (
        <>
          <Chip
            size="small"
            variant="outlined"
            color={invitation === 'sent' ? 'info' : 'warning'}
            label={translate(invitation === 'sent' ? 'pecflow.account.users.invitationSent' : 'pecflow.account.users.invitationExpired')}
            data-testid="invitation-status"
          />
          <ResendInvitation record={record} />
        </>
      )}
    </Stack>
  );
}
