// A new password's field: shown or hidden, with what the policy still asks written live under it (the same check as
// the server's, domain/passwordPolicy.ts). For the pages outside react-admin's forms (sign-in steps, links, profile).
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Box, IconButton, InputAdornment, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { PASSWORD_MESSAGES, type PasswordOwner, type PasswordPolicy } from '#domain/passwordRules';
import { usePasswordChecker, type PasswordChecker } from './passwordPolicy';

/** What the policy says of `password`: nothing yet (loading), its requirements (empty), its issues, or none. */
export function policyState(checker: PasswordChecker | undefined, password: string, owner?: PasswordOwner) {
  if (!checker) return { issues: undefined, requirements: undefined };
  if (!password) return { issues: [PASSWORD_MESSAGES.required], requirements: PASSWORD_MESSAGES.requirements(checker.policy) };
  return { issues: checker.issues(password, owner), requirements: undefined };
}

/** The lines under a new password's field: the requirements, then what is missing, or that it is accepted. */
export function PolicyHelp({
  password,
  issues,
  requirements,
  serverError,
}: {
  password: string;
  issues?: string[];
  requirements?: string;
  serverError?: string;
}) {
  const translate = useTranslate();
  if (serverError) return <>{serverError}</>;
  if (!issues) return <>{translate('pecflow.account.password.checking')}</>;
  if (!password) return <>{requirements}</>;
  if (issues.length === 0)
    return (
      <Typography component="span" variant="caption" color="success.main" data-testid="password-accepted">
        {translate('pecflow.account.password.accepted')}
      </Typography>
    );
  return (
    <Box component="span" data-testid="password-issues" sx={{ display: 'block' }}>
      {issues.map((issue) => (
        <Box component="span" key={issue} sx={{ display: 'block' }}>
          {issue}
        </Box>
      ))}
    </Box>
  );
}

interface NewPasswordFieldProps {
  value: string;
  onChange(value: string): void;
  owner?: PasswordOwner;
  /** Figures known with the page's data (a link's page). */
  policy?: PasswordPolicy;
  label?: string;
  /** The server's refusal, shown in place of the live check until the value changes. */
  serverError?: string;
  /** Whether the last submit was tried: the issues show as an error from then on. */
  touched?: boolean;
  autoFocus?: boolean;
}

/** Returns the field and whether the policy accepts the value (the submit waits for it). */
export function useNewPassword(value: string, owner?: PasswordOwner, policy?: PasswordPolicy) {
  const checker = usePasswordChecker(policy);
  const state = policyState(checker, value, owner);
  return { ...state, accepted: state.issues?.length === 0 };
}

export function NewPasswordField({ value, onChange, owner, policy, label, serverError, touched, autoFocus }: NewPasswordFieldProps) {
  const translate = useTranslate();
  const [shown, setShown] = useState(false);
  const { issues, requirements } = useNewPassword(value, owner, policy);
  const invalid = !!serverError || (!!issues?.length && (touched || value.length > 0));
  return (
    <TextField
      label={label ?? translate('pecflow.account.password.new')}
      type={shown ? 'text' : 'password'}
      name="new-password"
      autoComplete="new-password"
      required
      autoFocus={autoFocus}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={invalid}
      helperText={<PolicyHelp password={value} issues={issues} requirements={requirements} serverError={serverError} />}
      fullWidth
      slotProps={{
        formHelperText: { component: 'div' } as object,
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={translate(shown ? 'pecflow.login.hidePassword' : 'pecflow.login.showPassword')}
                onClick={() => setShown((s) => !s)}
                edge="end"
              >
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
