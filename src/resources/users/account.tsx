// What the user screens add for accounts (issue 26): the choice between an invitation and a password when creating,
// the password's live check against the policy, the invitation's state in the list with 'Renvoyer l'invitation', and
// in the drawer the account's access (invitation sent again, second factor reset).
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { BooleanInput, Confirm, PasswordInput, useDataProvider, useTranslate, type RaRecord } from 'react-admin';
import type { ZodType } from 'zod';
import { INVITATION_LINK_DAYS } from '#domain/accounts';
import { formatDate } from '#domain/format';
import { loadPasswordChecker, usePasswordChecker } from '../../account/passwordPolicy';
import { policyState, PolicyHelp } from '../../account/NewPassword';
import type { AppDataProvider } from '../../dataProvider';
import { useMutationToasts, WRITE_RETRY } from '../../admin/mutations';
import { EntityStatus } from '../../settings/cells';
import type { InputComponent } from '../types';

const isObject = (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null;

/** The shared schema, plus the password policy's check (loaded on first use, as the server applies it). */
export function withPasswordPolicy<T extends ZodType>(schema: T): T {
  return schema.superRefine(
    async (value, ctx) => {
      const user = value as { password?: unknown; email?: string; firstName?: string; lastName?: string };
      if (typeof user.password !== 'string' || user.password === '') return;
      const [issue] = (await loadPasswordChecker()).issues(user.password, user);
      if (issue) ctx.addIssue({ code: 'custom', path: ['password'], message: issue });
    },
    { when: isObject },
  ) as T;
}

/** Invitation pending, and whether its 7-day link has expired. */
function invitationOf(record: RaRecord): 'sent' | 'expired' | undefined {
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

/**
 * Creating: an invitation by email (the default) or a password typed now. Editing: the account's access, an invitation
 * still pending (sent again) and the second factor (reset by an administrator).
 */
export const InvitationInput: InputComponent = ({ source, label, mode, record, readOnly }) => {
  if (mode === 'create') return <BooleanInput source={source} label={label} helperText="pecflow.account.users.sendInvitation" />;
  if (!record || readOnly) return null;
  return <AccountAccess record={record} />;
};

function AccountAccess({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const toasts = useMutationToasts();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const invitation = invitationOf(record);
  const reset = useMutation({
    mutationFn: () => dataProvider.userResetTwoFactor(record.id),
    ...WRITE_RETRY,
    onSuccess: async () => {
      setConfirming(false);
      toasts.success(translate('pecflow.account.users.twoFactorReset'));
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
    onError: (error) => {
      setConfirming(false);
      toasts.failure(error);
    },
  });
  if (!invitation && !record.twoFactorEnabled) return null;
  return (
    <Box sx={{ mb: 2, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="account-access">
      {invitation && (
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <Typography variant="body2">{translate('pecflow.account.users.invitationSentOn', { date: formatDate(String(record.invitationSentAt)) })}</Typography>
          <ResendInvitation record={record} size="medium" />
        </Stack>
      )}
      {record.twoFactorEnabled === true && (
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <Chip size="small" color="success" label={translate('pecflow.account.users.twoFactorOn')} />
          <Button variant="outlined" color="warning" onClick={() => setConfirming(true)}>
            {translate('pecflow.account.users.resetTwoFactor')}
          </Button>
        </Stack>
      )}
      <Confirm
        isOpen={confirming}
        loading={reset.isPending}
        title={translate('pecflow.account.users.resetTwoFactor')}
        content={translate('pecflow.account.users.resetTwoFactorText', { name: String(record.fullName ?? '') })}
        confirm={translate('pecflow.account.users.resetTwoFactor')}
        cancel={translate('pecflow.account.profile.cancel')}
        confirmColor="warning"
        onConfirm={() => reset.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** The password with the policy's live check; when creating, only without an invitation. */
export function PolicyPasswordInput({ source, label, mode }: { source: string; label: string; mode: 'create' | 'edit' }) {
  const [password = '', email, firstName, lastName, sendInvitation] = useWatch({ name: [source, 'email', 'firstName', 'lastName', 'sendInvitation'] }) as (
    string | boolean | undefined
  )[];
  const checker = usePasswordChecker();
  if (mode === 'create' && sendInvitation) return null;
  const value = String(password ?? '');
  const { issues, requirements } = policyState(checker, value, {
    email: String(email ?? ''),
    firstName: String(firstName ?? ''),
    lastName: String(lastName ?? ''),
  });
  return (
    <PasswordInput
      source={source}
      label={label}
      fullWidth
      autoComplete="new-password"
      helperText={<PolicyHelp password={value} issues={issues} requirements={requirements} />}
    />
  );
}
