// Choosing a new password (a weak one at sign-in, a forgotten one, an invitation, Mon profil): the new password with
// the policy's live check, its confirmation, and the server's refusal under the field it names.
import { Alert, Box, Button, TextField } from '@mui/material';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { extractErrorMessage } from '#domain/errors';
import { PASSWORD_MESSAGES, type PasswordOwner, type PasswordPolicy } from '#domain/passwordRules';
import { violationsOf } from '../admin/violations';
import { NewPasswordField, useNewPassword } from './NewPassword';

interface NewPasswordFormProps {
  owner?: PasswordOwner;
  policy?: PasswordPolicy;
  submitLabel: string;
  /** Sends the new password (and what `before` asked, through the caller's own state); throws the server's refusal. */
  onSubmit(password: string): Promise<void>;
  /** Fields before the new password (the current one, in Mon profil). */
  before?: ReactNode;
  /** The server's refusal of a field `before` shows (currentPassword). */
  onViolations?(violations: Record<string, string>): void;
  autoFocus?: boolean;
}

export function NewPasswordForm({ owner, policy, submitLabel, onSubmit, before, onViolations, autoFocus }: NewPasswordFormProps) {
  const translate = useTranslate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string>();
  const [error, setError] = useState<string>();
  const { accepted } = useNewPassword(password, owner, policy);
  const mismatch = touched && confirmation !== password ? PASSWORD_MESSAGES.mismatch : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!accepted || confirmation !== password) return;
    setSubmitting(true);
    setError(undefined);
    try {
      await onSubmit(password);
    } catch (failure) {
      const violations = violationsOf(failure);
      if (violations?.password) setServerError(violations.password);
      else if (violations && Object.keys(violations).length && onViolations) onViolations(violations);
      else setError(extractErrorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {before}
      <NewPasswordField
        value={password}
        onChange={(value) => {
          setPassword(value);
          setServerError(undefined);
        }}
        owner={owner}
        policy={policy}
        serverError={serverError}
        touched={touched}
        autoFocus={autoFocus}
      />
      <TextField
        label={translate('pecflow.account.password.confirm')}
        type="password"
        name="confirm-password"
        autoComplete="new-password"
        required
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        error={!!mismatch}
        helperText={mismatch}
        fullWidth
      />
      <Button type="submit" variant="contained" size="large" disabled={submitting} fullWidth>
        {submitting ? translate('pecflow.account.saving') : submitLabel}
      </Button>
    </Box>
  );
}
