// A load that failed (spec section 8): the title, the sentence, and 'Réessayer'. Lists, drawers and Système use it.
import { Alert, AlertTitle, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';

export function LoadError({
  title,
  text,
  onRetry,
  action,
  testId,
  severity = 'error',
}: {
  title: string;
  text: ReactNode;
  onRetry?: () => void;
  action?: ReactNode;
  testId?: string;
  /** 'warning' for an expired session (the PEC list), which another sign-in cures. */
  severity?: 'error' | 'warning';
}) {
  const translate = useTranslate();
  return (
    <Alert
      severity={severity}
      data-testid={testId}
      action={
        action ??
        (onRetry && (
          <Button color="inherit" size="small" onClick={onRetry}>
            {translate('pecflow.settings.list.retry')}
          </Button>
        ))
      }
    >
      <AlertTitle>{title}</AlertTitle>
      {text}
    </Alert>
  );
}
