// The particular inputs of the user form.
import { Button } from '@mui/material';
import { InputGuesser } from '@api-platform/admin';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslate } from 'react-admin';
import { PolicyPasswordInput } from './account';
import type { InputComponent } from '../types';

/**
 * On creation without an invitation; when editing, hidden behind "Modifier le mot de passe" and omitted when left empty.
 * Its live check is the password policy's (src/resources/users/account.tsx).
 */
export const PasswordField: InputComponent = ({ source, label, mode, readOnly }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(mode === 'create');
  if (readOnly) return null;
  if (!open) {
    return (
      <Button variant="outlined" onClick={() => setOpen(true)} sx={{ mt: 1, mb: 2.5 }}>
        {translate('pecflow.settings.users.changePassword')}
      </Button>
    );
  }
  return <PolicyPasswordInput source={source} label={label} mode={mode} />;
};

/** The centres picker offers the centres of the organisation chosen in the form. */
export const OrganisationShopsInput: InputComponent = ({ source, label, readOnly }) => {
  const holding = useWatch({ name: 'holding' }) as string | null | undefined;
  return (
    <InputGuesser
      source={source}
      label={label}
      fullWidth
      readOnly={readOnly}
      filter={holding ? { holding } : {}}
      perPage={100}
      sort={{ field: 'name', order: 'ASC' }}
    />
  );
};
