// The steps of signing in after the password (issue 26), shown in the login page's card: the second factor's code, a
// new password when the current one no longer meets the policy, the enrolment of a mandatory second factor (with its
// recovery codes shown once). Loaded only when the server asks for one of them.
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useLogin, useTranslate } from 'react-admin';
import { extractErrorMessage } from '#domain/errors';
import { postSignIn, SignInStepRequired, type SignInStepAnswer } from '../authProvider';
import type { TokenResponse } from '../session';
import { NewPasswordForm } from './NewPasswordForm';
import { RecoveryCodes } from './RecoveryCodes';

interface StepProps {
  answer: SignInStepAnswer;
  nextPath: string;
  /** The server asked for another step. */
  onStep(answer: SignInStepAnswer): void;
  /** Back to email and password (the challenge expired). */
  onRestart(): void;
}

export default function SignInSteps(props: StepProps) {
  const translate = useTranslate();
  const { answer, onRestart } = props;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid={`sign-in-step-${answer.step}`}>
      {answer.step === 'two_factor' && <CodeStep {...props} />}
      {answer.step === 'password_change' && <PasswordStep {...props} />}
      {answer.step === 'two_factor_enrolment' && <EnrolmentStep {...props} />}
      <Button variant="text" size="small" onClick={onRestart}>
        {translate('pecflow.account.steps.restart')}
      </Button>
    </Box>
  );
}

/** Runs a step through react-admin's login (tokens stored, profile read, then the next page); another step is shown. */
function useStepLogin({ nextPath, onStep }: StepProps) {
  const login = useLogin();
  return async (params: Record<string, unknown>) => {
    try {
      await login(params, nextPath);
    } catch (error) {
      if (error instanceof SignInStepRequired) onStep(error.answer);
      else throw error;
    }
  };
}

function CodeField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const translate = useTranslate();
  return (
    <TextField
      label={translate('pecflow.account.steps.twoFactor.code')}
      name="one-time-code"
      autoComplete="one-time-code"
      autoFocus
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { inputMode: 'text', maxLength: 64 } }}
      fullWidth
    />
  );
}

function StepTitle({ title, text }: { title: string; text?: string }) {
  return (
    <>
      <Typography component="h2" variant="h6" fontWeight={700}>
        {title}
      </Typography>
      {text && <Typography color="text.secondary">{text}</Typography>}
    </>
  );
}

function CodeStep(props: StepProps) {
  const translate = useTranslate();
  const run = useStepLogin(props);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(undefined);
    try {
      await run({ step: 'two_factor', challenge: props.answer.challenge, code: code.trim() });
    } catch (failure) {
      setError(extractErrorMessage(failure));
      setSubmitting(false);
    }
  };
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <StepTitle title={translate('pecflow.account.steps.twoFactor.title')} text={translate('pecflow.account.steps.twoFactor.text')} />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <CodeField value={code} onChange={setCode} />
      <Button type="submit" variant="contained" size="large" disabled={submitting || !code.trim()} fullWidth>
        {translate('pecflow.account.steps.twoFactor.submit')}
      </Button>
    </Box>
  );
}

function PasswordStep(props: StepProps) {
  const translate = useTranslate();
  const run = useStepLogin(props);
  return (
    <>
      <StepTitle title={translate('pecflow.account.steps.passwordChange.title')} text={props.answer.message} />
      <NewPasswordForm
        owner={props.answer.owner}
        submitLabel={translate('pecflow.account.steps.passwordChange.submit')}
        onSubmit={(password) => run({ step: 'password_change', challenge: props.answer.challenge, password })}
        autoFocus
      />
    </>
  );
}

function EnrolmentStep(props: StepProps) {
  const translate = useTranslate();
  const login = useLogin();
  const { answer, nextPath, onStep } = props;
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const [done, setDone] = useState<TokenResponse & { recoveryCodes: string[] }>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(undefined);
    try {
      const result = await postSignIn('/api/login_check/two-factor-enrolment', { challenge: answer.challenge, code: code.trim() });
      if (result.step && result.challenge) onStep(result as SignInStepAnswer);
      else setDone(result as TokenResponse & { recoveryCodes: string[] });
    } catch (failure) {
      setError(extractErrorMessage(failure));
    }
    setSubmitting(false);
  };
  if (done) {
    return (
      <>
        <RecoveryCodes codes={done.recoveryCodes} />
        <Button
          variant="contained"
          size="large"
          fullWidth
          onClick={() => login({ tokens: done }, nextPath).catch((failure: unknown) => setError(extractErrorMessage(failure)))}
        >
          {translate('pecflow.account.steps.recovery.continue')}
        </Button>
      </>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <StepTitle title={translate('pecflow.account.steps.enrolment.title')} text={answer.message} />
      <EnrolmentCode qrCode={answer.qrCode!} secret={answer.secret!} />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <CodeField value={code} onChange={setCode} />
      <Button type="submit" variant="contained" size="large" disabled={submitting || !code.trim()} fullWidth>
        {translate('pecflow.account.steps.enrolment.submit')}
      </Button>
    </Box>
  );
}

/** The QR code to scan, and its secret as text for an app without a camera. */
export function EnrolmentCode({ qrCode, secret }: { qrCode: string; secret: string }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="body2">{translate('pecflow.account.steps.enrolment.scan')}</Typography>
      <Box component="img" src={qrCode} alt={translate('pecflow.account.steps.enrolment.qrAlt')} sx={{ width: 200, height: 200, alignSelf: 'center' }} />
      <Typography variant="body2" color="text.secondary">
        {translate('pecflow.account.steps.enrolment.secret')}{' '}
        {/* By groups of 4 to be typed into a phone, spaced by the page, not by spaces: copied, it is the key as it is. */}
        <Box component="code" data-testid="totp-secret" sx={{ fontFamily: 'monospace', fontWeight: 600 }}>
          {secret.match(/.{1,4}/g)?.map((group, index) => (
            <Box component="span" key={index} sx={{ display: 'inline-block', mr: 0.75 }}>
              {group}
            </Box>
          ))}
        </Box>
      </Typography>
    </>
  );
}
