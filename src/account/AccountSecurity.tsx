// Mon profil's security: the password (changed with the current one; the other sessions end) and the second factor
// (turned on with a QR code and a code, its recovery codes shown once; turned off with a code unless mandatory).
import { Alert, Box, Button, Card, CardContent, Chip, Collapse, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { ACCOUNT_MESSAGES } from '#domain/accounts';
import { extractErrorMessage } from '#domain/errors';
import { apiFetch } from '../dataProvider/http';
import { useToast } from '../layout/Toasts';
import { focusOnShow } from '../admin/focusOnShow';
import { NewPasswordForm } from './NewPasswordForm';
import { RecoveryCodes } from './RecoveryCodes';
import { EnrolmentCode } from './SignInSteps';
import type { SessionUser } from '../session';

export function PasswordCard({ user }: { user: SessionUser }) {
  const translate = useTranslate();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState('');
  const [currentError, setCurrentError] = useState<string>();
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="password-title">
      <CardContent>
        <Typography id="password-title" variant="h6" component="h2" fontWeight={700}>
          {translate('pecflow.account.profile.passwordTitle')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {translate('pecflow.account.profile.passwordSubtitle')}
        </Typography>
        {!open ? (
          <Button variant="outlined" onClick={() => setOpen(true)}>
            {translate('pecflow.account.profile.changePassword')}
          </Button>
        ) : (
          <Box sx={{ maxWidth: 420 }}>
            <NewPasswordForm
              owner={user}
              submitLabel={translate('pecflow.account.profile.changePassword')}
              before={
                <TextField
                  label={translate('pecflow.account.password.current')}
                  type="password"
                  name="current-password"
                  autoComplete="current-password"
                  required
                  autoFocus
                  value={current}
                  onChange={(event) => {
                    setCurrent(event.target.value);
                    setCurrentError(undefined);
                  }}
                  error={!!currentError}
                  helperText={currentError}
                  fullWidth
                />
              }
              onViolations={(violations) => setCurrentError(violations.currentPassword)}
              onSubmit={async (password) => {
                await apiFetch('/api/user/password', { method: 'POST', body: { currentPassword: current, password } });
                toast.success(translate('pecflow.account.profile.passwordChanged'), ACCOUNT_MESSAGES.passwordChanged);
                setOpen(false);
                setCurrent('');
              }}
            />
          </Box>
        )}
      </CardContent>
    </Card>
  );
}

interface TwoFactorState {
  enabled: boolean;
  required: boolean;
  recoveryCodesLeft: number;
}

const stateKey = ['pecflow', 'two-factor'];

export function TwoFactorCard() {
  const translate = useTranslate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { data: state } = useQuery({ queryKey: stateKey, queryFn: () => apiFetch<TwoFactorState>('/api/user/two-factor') });
  const [enrolment, setEnrolment] = useState<{ secret: string; qrCode: string }>();
  const [codes, setCodes] = useState<string[]>();
  const [disabling, setDisabling] = useState(false);
  // Just turned off: « Activer… » takes the focus as it appears (the form that had it is gone).
  const [justDisabled, setJustDisabled] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const setup = useMutation({
    mutationFn: () => apiFetch<{ secret: string; qrCode: string }>('/api/user/two-factor/setup', { method: 'POST' }),
    onSuccess: (answer) => {
      setEnrolment(answer);
      setCode('');
      setError(undefined);
    },
    onError: (failure) => toast.error(translate('pecflow.account.profile.error'), extractErrorMessage(failure)),
  });
  const confirm = useMutation({
    mutationFn: () => apiFetch<TwoFactorState & { recoveryCodes: string[] }>('/api/user/two-factor', { method: 'POST', body: { code: code.trim() } }),
    onSuccess: ({ recoveryCodes, ...next }) => {
      queryClient.setQueryData(stateKey, next);
      setEnrolment(undefined);
      setCodes(recoveryCodes);
      toast.success(translate('pecflow.account.profile.enabled'), '');
    },
    onError: (failure) => setError(extractErrorMessage(failure)),
  });
  const disable = useMutation({
    mutationFn: () => apiFetch('/api/user/two-factor', { method: 'DELETE', body: { code: code.trim() } }),
    onSuccess: async () => {
      setDisabling(false);
      setJustDisabled(true);
      setCodes(undefined);
      await queryClient.invalidateQueries({ queryKey: stateKey });
      toast.success(translate('pecflow.account.profile.disabled'), '');
    },
    onError: (failure) => setError(extractErrorMessage(failure)),
  });

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (enrolment) confirm.mutate();
    else disable.mutate();
  };
  const codeForm = (label: string, pending: boolean) => (
    <Box component="form" noValidate onSubmit={submitCode} sx={{ display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420, mt: 2 }}>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <TextField
        label={translate('pecflow.account.steps.twoFactor.code')}
        name="one-time-code"
        autoComplete="one-time-code"
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
        fullWidth
      />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={pending || !code.trim()}>
          {label}
        </Button>
        <Button
          onClick={() => {
            setEnrolment(undefined);
            setDisabling(false);
            setError(undefined);
          }}
        >
          {translate('pecflow.account.profile.cancel')}
        </Button>
      </Stack>
    </Box>
  );

  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="two-factor-title" data-testid="two-factor">
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <Typography id="two-factor-title" variant="h6" component="h2" fontWeight={700}>
            {translate('pecflow.account.profile.twoFactorTitle')}
          </Typography>
          {state && (
            <Chip
              size="small"
              color={state.enabled ? 'success' : 'default'}
              label={translate(state.enabled ? 'pecflow.account.profile.on' : 'pecflow.account.profile.off')}
              data-testid="two-factor-status"
            />
          )}
          {state?.required && <Chip size="small" variant="outlined" color="warning" label={translate('pecflow.account.profile.required')} />}
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {translate('pecflow.account.profile.twoFactorSubtitle')}
        </Typography>
        {state?.enabled && <Typography variant="body2">{translate('pecflow.account.profile.codesLeft', { smart_count: state.recoveryCodesLeft })}</Typography>}
        {/* Just turned on: the codes to keep take the focus (the form that had it is gone). */}
        <Collapse in={!!codes}>
          {codes && (
            <Box ref={focusOnShow} tabIndex={-1} data-testid="two-factor-codes">
              <RecoveryCodes codes={codes} />
            </Box>
          )}
        </Collapse>
        {enrolment ? (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, maxWidth: 420, mt: 1 }}>
            <EnrolmentCode qrCode={enrolment.qrCode} secret={enrolment.secret} />
            {codeForm(translate('pecflow.account.steps.enrolment.submit'), confirm.isPending)}
          </Box>
        ) : disabling ? (
          <>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('pecflow.account.profile.disableText')}
            </Typography>
            {codeForm(translate('pecflow.account.profile.disable'), disable.isPending)}
          </>
        ) : state && !state.enabled ? (
          <Button
            ref={justDisabled ? focusOnShow : undefined}
            variant="outlined"
            sx={{ mt: 1 }}
            onClick={setup.isPending ? undefined : () => setup.mutate()}
            aria-disabled={setup.isPending || undefined}
          >
            {translate('pecflow.account.profile.enable')}
          </Button>
        ) : state?.enabled && !state.required ? (
          <Button
            color="warning"
            sx={{ mt: 1 }}
            onClick={() => {
              setDisabling(true);
              setCode('');
              setError(undefined);
            }}
          >
            {translate('pecflow.account.profile.disable')}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
