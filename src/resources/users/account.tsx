// What the user form adds for accounts (issue 26): the choice between an invitation and a password when creating,
// the password's live check against the policy, and in the drawer the account's access (invitation sent again, second
// factor reset). The list's side (the invitation's state, 'Renvoyer l'invitation') is ./invitation.tsx.
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { BooleanInput, PasswordInput, useDataProvider, useTranslate, type RaRecord } from 'react-admin';
import { ConfirmDialog, ResetMark } from '../../admin/ConfirmDialog';
import type { ZodType } from 'zod';
import { formatDate } from '#domain/format';
import { loadPasswordChecker, usePasswordChecker } from '../../account/passwordPolicy';
import { policyState, PolicyHelp } from '../../account/NewPassword';
import type { AppDataProvider } from '../../dataProvider';
import { useMutationToasts, WRITE_RETRY } from '../../admin/mutations';
import { invitationOf, ResendInvitation } from './invitation';
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
      <ConfirmDialog
        isOpen={confirming}
        loading={reset.isPending}
        title={translate('pecflow.account.users.resetTwoFactor')}
        content={translate('pecflow.account.users.resetTwoFactorText', { name: String(record.fullName ?? '') })}
        confirm={translate('pecflow.account.users.resetTwoFactor')}
        cancel={translate('pecflow.account.profile.cancel')}
        ConfirmIcon={ResetMark}
        destructive
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
