// Secrets of a credential: written, never read back. The API says only whether one is stored (hasPassword...).
import { PasswordInput, useTranslate } from 'react-admin';
import type { InputComponent } from '../types';

/** hasPassword for password, hasApiKey for apiKey. */
const flagOf = (source: string) => `has${source[0]!.toUpperCase()}${source.slice(1)}`;

export const SecretInput: InputComponent = ({ source, label, record, readOnly }) => {
  const translate = useTranslate();
  const stored = record?.[flagOf(source)] === true;
  return (
    <PasswordInput
      source={source}
      label={label}
      fullWidth
      readOnly={readOnly}
      autoComplete="new-password"
      helperText={stored ? translate('pecflow.settings.secretKept') : false}
    />
  );
};
