// /login (spec sections 2 and 5): public; a visitor already signed in goes back where they came from, else /dashboard.
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Alert, AlertTitle, Avatar, Box, Button, Card, CardContent, IconButton, InputAdornment, TextField, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useEffectEvent, useLayoutEffect, useState, type FormEvent } from 'react';
import { dropKeptFrame } from '../keptFrame';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { useCheckAuth, useLogin, useTranslate } from 'react-admin';
import { cancelSignIn, SignInStepRequired, type SignInStepAnswer } from '../authProvider';
import { takeSessionExpired } from '../session';
import { AUTH_MESSAGES, loginErrors, SESSION_END_MESSAGES } from '#domain/authMessages';
import { preloadPage } from '../pageLoaders';
import { useToast } from './Toasts';
import { useDocumentTitle } from './documentTitle';
import { LoadingPage } from './LoadingPage';

type Field = 'email' | 'password';

export const AFTER_LOGIN_PATH = '/dashboard';

/** The steps after the password (second factor, new password, enrolment): loaded only when the server asks for one. */
const SignInSteps = lazy(() => import('../account/SignInSteps'));

/**
 * Where to go once signed in: the page that sent the visitor to /login, or the dashboard. The site's address ('/')
 * names no page: who typed it lands on the dashboard too (its redirect to /pec is for a signed-in visitor).
 */
function useNextPath(): string {
  const location = useLocation();
  const state = location.state as { nextPathname?: string; nextSearch?: string } | null;
  const next = state?.nextPathname;
  return next && next !== '/login' && next !== '/' ? `${next}${state?.nextSearch ?? ''}` : AFTER_LOGIN_PATH;
}

export function LoginPage() {
  const translate = useTranslate();
  useDocumentTitle(translate('pecflow.login.title'), { named: true });
  const login = useLogin();
  const checkAuth = useCheckAuth();
  const navigate = useNavigate();
  const nextPath = useNextPath();
  const [checking, setChecking] = useState(true);
  const [values, setValues] = useState({ email: '', password: '' });
  const [touched, setTouched] = useState<Record<Field, boolean>>({ email: false, password: false });
  const [showPassword, setShowPassword] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);
  const [step, setStep] = useState<SignInStepAnswer>();

  const toast = useToast();
  // Only on arrival: an authenticated visitor does not stay on /login. An effect event, so nothing it reads retriggers it.
  const arrive = useEffectEvent(() => {
    // A session the server ended: « Session expirée », or, when it said why (the account disabled or locked: its
    // holder alone is told, server/auth/plugin.ts), the form's own verdict for that account.
    const ended = takeSessionExpired();
    if (ended && !ended.reason) toast.warning(AUTH_MESSAGES.sessionExpiredTitle, AUTH_MESSAGES.sessionExpired);
    checkAuth({}, false)
      .then(() => navigate(nextPath, { replace: true }))
      .catch(() => {
        if (ended?.reason) setServerError(SESSION_END_MESSAGES[ended.reason]);
        setChecking(false);
      });
  });
  useEffect(() => arrive(), []);
  // A frame kept of the page asked for (src/keptFrame.ts) gives way to the sign-in.
  useLayoutEffect(() => dropKeptFrame(), []);

  // The spec's rules, inline (no zod): the form posts at once, without waiting for a chunk.
  const errors = loginErrors(values);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ email: true, password: true });
    if (errors.email || errors.password) return;
    try {
      setSubmitting(true);
      setServerError(null);
      await login({ email: values.email.trim(), password: values.password }, nextPath);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof SignInStepRequired) setStep(error.answer);
      else setServerError(error instanceof Error ? error.message : String(error));
    }
  };

  if (checking) return <LoadingPage messageKey="pecflow.app.checkingAuth" />;

  const change = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    if (!typing) {
      setTyping(true);
      // The visitor is signing in: the next page and the (public) API description load while they type, not after.
      preloadPage(nextPath);
    }
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setTouched((t) => ({ ...t, [field]: true }));
    // The server's verdict was about the previous credentials: it no longer applies once they change.
    setServerError(null);
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ width: '100%', maxWidth: 440 }} elevation={6}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 3 }}>
            <Avatar sx={{ bgcolor: 'primary.main', mb: 1.5 }}>
              <LockOutlinedIcon />
            </Avatar>
            <Typography component="h1" variant="h5" fontWeight={700}>
              {translate('pecflow.login.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary" textAlign="center">
              {translate('pecflow.login.subtitle')}
            </Typography>
          </Box>

          {serverError && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              <AlertTitle>{translate('pecflow.login.errorTitle')}</AlertTitle>
              {serverError}
            </Alert>
          )}

          {step ? (
            <Suspense fallback={<Typography color="text.secondary">{translate('pecflow.account.loading')}</Typography>}>
              <SignInSteps
                answer={step}
                nextPath={nextPath}
                onStep={setStep}
                onRestart={() => {
                  cancelSignIn(step.challenge);
                  setStep(undefined);
                  setValues((v) => ({ ...v, password: '' }));
                }}
              />
            </Suspense>
          ) : (
            <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
              <TextField
                label={translate('pecflow.login.email')}
                type="email"
                name="email"
                autoComplete="username"
                autoFocus
                required
                value={values.email}
                onChange={change('email')}
                error={touched.email && !!errors.email}
                helperText={touched.email ? errors.email : undefined}
                fullWidth
              />
              <TextField
                label={translate('pecflow.login.password')}
                type={showPassword ? 'text' : 'password'}
                name="password"
                autoComplete="current-password"
                required
                value={values.password}
                onChange={change('password')}
                error={touched.password && !!errors.password}
                helperText={touched.password ? errors.password : undefined}
                fullWidth
                slotProps={{
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <IconButton
                          aria-label={translate(showPassword ? 'pecflow.login.hidePassword' : 'pecflow.login.showPassword')}
                          onClick={() => setShowPassword((s) => !s)}
                          edge="end"
                        >
                          {showPassword ? <VisibilityOff /> : <Visibility />}
                        </IconButton>
                      </InputAdornment>
                    ),
                  },
                }}
              />
              <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
                {translate(submitting ? 'pecflow.login.submitting' : 'pecflow.login.submit')}
              </Button>
              <Button variant="text" size="small" component={RouterLink} to="/forgot-password" state={{ email: values.email }}>
                {translate('pecflow.login.forgotPassword')}
              </Button>
            </Box>
          )}

          <Typography variant="body2" color="text.secondary" textAlign="center" sx={{ mt: 2 }}>
            {translate('pecflow.login.help')}
          </Typography>
          <Alert severity="info" variant="outlined" sx={{ mt: 2, fontSize: 12 }} icon={false} role="note">
            {translate('pecflow.login.gdpr')}
          </Alert>
          <Typography variant="caption" color="text.secondary" component="p" textAlign="center" sx={{ mt: 2 }}>
            {translate('pecflow.app.version')}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}
