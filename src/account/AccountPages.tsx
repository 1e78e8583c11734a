// The public account pages (react-admin custom routes without layout): 'Mot de passe oublié ?' (/forgot-password), the
// page a reset link opens (/reset-password/{token}) and the one an invitation opens (/invitation/{token}).
import LockResetIcon from '@mui/icons-material/LockReset';
import { Alert, AlertTitle, Avatar, Box, Button, Card, CardContent, Skeleton, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { ACCOUNT_MESSAGES } from '#domain/accounts';
import { extractErrorMessage } from '#domain/errors';
import type { PasswordPolicy } from '#domain/passwordRules';
import { violationsOf } from '../admin/violations';
import { publicFetch } from '../dataProvider/http';
import { useDocumentTitle } from '../layout/documentTitle';
import { NewPasswordForm } from './NewPasswordForm';

/** `named`: the title names the product already ('Bienvenue sur Pecflow'): the browser's tab says it as it is. */
function AccountCard({ title, named, subtitle, children }: { title: string; named?: boolean; subtitle?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title, { named });
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ width: '100%', maxWidth: 460 }} elevation={6}>
        <CardContent sx={{ p: { xs: 3, sm: 4 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
            <Avatar sx={{ bgcolor: 'primary.main', mb: 1.5 }}>
              <LockResetIcon />
            </Avatar>
            <Typography component="h1" variant="h5" fontWeight={700} textAlign="center">
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" color="text.secondary" textAlign="center" sx={{ mt: 0.5 }}>
                {subtitle}
              </Typography>
            )}
          </Box>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

function BackToLogin({ variant = 'text' }: { variant?: 'text' | 'contained' }) {
  const translate = useTranslate();
  return (
    <Button component={RouterLink} to="/login" variant={variant} size={variant === 'contained' ? 'large' : 'small'}>
      {translate(variant === 'contained' ? 'pecflow.login.submit' : 'pecflow.account.backToLogin')}
    </Button>
  );
}

export function ForgotPasswordPage() {
  const translate = useTranslate();
  const location = useLocation();
  const [email, setEmail] = useState(String((location.state as { email?: string } | null)?.email ?? ''));
  const [sent, setSent] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(undefined);
    setFieldError(undefined);
    try {
      const answer = await publicFetch<{ message: string }>('/api/forgot-password', { method: 'POST', body: { email: email.trim() } });
      setSent(answer.message);
    } catch (failure) {
      const violations = violationsOf(failure);
      if (violations?.email) setFieldError(violations.email);
      else setError(extractErrorMessage(failure));
    }
    setSubmitting(false);
  };
  return (
    <AccountCard title={translate('pecflow.account.forgot.title')} subtitle={sent ? undefined : translate('pecflow.account.forgot.subtitle')}>
      {sent ? (
        <Alert severity="success" role="status">
          <AlertTitle>{translate('pecflow.account.forgot.sentTitle')}</AlertTitle>
          {sent}
        </Alert>
      ) : (
        <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <TextField
            label={translate('pecflow.login.email')}
            type="email"
            name="email"
            autoComplete="username"
            autoFocus
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={!!fieldError}
            helperText={fieldError}
            fullWidth
          />
          <Button type="submit" variant="contained" size="large" disabled={submitting || !email.trim()} fullWidth>
            {translate(submitting ? 'pecflow.account.forgot.sending' : 'pecflow.account.forgot.submit')}
          </Button>
        </Box>
      )}
      <BackToLogin />
    </AccountCard>
  );
}

interface LinkData {
  expiresAt: string;
  user: { email: string; firstName: string; lastName: string; organisation: string };
  passwordPolicy: PasswordPolicy;
}

/** The page of a link sent by email: reads who it is for, then sets the password once. */
function LinkPage({ kind }: { kind: 'reset' | 'invitation' }) {
  const translate = useTranslate();
  const { token = '' } = useParams();
  const base = kind === 'reset' ? '/api/forgot-password' : '/api/invitations';
  const path = `${base}/${encodeURIComponent(token)}`;
  const { data, error, isPending } = useQuery({
    queryKey: ['pecflow', 'account-link', path],
    queryFn: () => publicFetch<LinkData>(path),
    retry: false,
    staleTime: Infinity,
  });
  const [done, setDone] = useState(false);
  const texts = `pecflow.account.${kind}`;

  if (isPending) {
    return (
      <AccountCard title={translate(`${texts}.title`)} named={kind === 'invitation'}>
        <Skeleton height={56} />
        <Skeleton height={56} />
      </AccountCard>
    );
  }
  if (error || !data) {
    return (
      <AccountCard title={translate(`${texts}.invalidTitle`)}>
        <Alert severity="error" role="alert">
          {extractErrorMessage(error) || ACCOUNT_MESSAGES.linkInvalid}
          {kind === 'invitation' && <Box sx={{ mt: 1 }}>{translate('pecflow.account.invitation.invalidText')}</Box>}
        </Alert>
        {kind === 'reset' && (
          <Button component={RouterLink} to="/forgot-password" variant="outlined">
            {translate('pecflow.account.reset.requestNew')}
          </Button>
        )}
        <BackToLogin />
      </AccountCard>
    );
  }
  if (done) {
    return (
      <AccountCard title={translate('pecflow.account.doneTitle')}>
        <Alert severity="success" role="status">
          {ACCOUNT_MESSAGES.passwordSet}
        </Alert>
        <BackToLogin variant="contained" />
      </AccountCard>
    );
  }
  return (
    <AccountCard
      title={translate(`${texts}.title`)}
      named={kind === 'invitation'}
      subtitle={translate(`${texts}.subtitle`, { email: data.user.email, organisation: data.user.organisation })}
    >
      <NewPasswordForm
        owner={data.user}
        policy={data.passwordPolicy}
        submitLabel={translate(`${texts}.submit`)}
        autoFocus
        onSubmit={async (password) => {
          await publicFetch(path, { method: 'POST', body: { password } });
          setDone(true);
        }}
      />
      <BackToLogin />
    </AccountCard>
  );
}

export const ResetPasswordPage = () => <LinkPage kind="reset" />;
export const InvitationPage = () => <LinkPage kind="invitation" />;
