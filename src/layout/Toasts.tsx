// Toasts (spec section 2): bottom right, 5 s, paused while hovered, closed on click; an optional title above the text.
import { Alert, AlertTitle, Snackbar } from '@mui/material';
import { useEffect, useState } from 'react';
import { useNotificationContext, useNotify, useTranslate, type NotificationPayload } from 'react-admin';
import { TOAST_DURATION_MS } from '../domain/limits';

type Severity = 'success' | 'error' | 'warning' | 'info';

export function Toasts() {
  const { notifications, takeNotification } = useNotificationContext();
  const translate = useTranslate();
  const [current, setCurrent] = useState<NotificationPayload | undefined>();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!current && notifications.length) {
      const next = takeNotification();
      if (next) {
        setCurrent(next);
        setOpen(true);
      }
    }
  }, [notifications, current, takeNotification]);

  if (!current) return null;
  const { message, type = 'info', notificationOptions = {} } = current;
  const { messageArgs = {}, autoHideDuration } = notificationOptions;
  const title = typeof messageArgs.title === 'string' ? messageArgs.title : undefined;
  const text = typeof message === 'string' ? translate(message, { _: message, ...messageArgs }) : message;
  const close = () => setOpen(false);

  return (
    <Snackbar
      open={open}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      autoHideDuration={autoHideDuration === undefined ? TOAST_DURATION_MS : (autoHideDuration ?? undefined)}
      onClose={(_event, reason) => reason !== 'clickaway' && close()}
      slotProps={{ transition: { onExited: () => setCurrent(undefined) } }}
    >
      <Alert
        severity={type as Severity}
        variant="filled"
        onClick={close}
        role={type === 'error' ? 'alert' : 'status'}
        sx={{ cursor: 'pointer', minWidth: 300, maxWidth: 480, whiteSpace: 'pre-line' }}
        data-testid="toast"
      >
        {title && <AlertTitle>{title}</AlertTitle>}
        {text}
      </Alert>
    </Snackbar>
  );
}

/** Toasts with a title and a text, as the spec words them ("Succès" / "PEC créée", ...). */
export function useToast() {
  const notify = useNotify();
  const show = (type: Severity) => (title: string, message = '') =>
    notify(message || title, { type, messageArgs: { title: message ? title : undefined, _: message || title } });
  return { success: show('success'), error: show('error'), warning: show('warning'), info: show('info') };
}
