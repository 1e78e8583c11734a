// Toasts (spec section 2): bottom right, 5 s, paused while hovered, closed on click; an optional title above the text.
// A notification shows as soon as it is sent: several stack (the newest at the bottom, at most MAX_TOASTS, the oldest
// dropped first), each with its own timer. Beside an open drawer where the screen leaves them room, so that they never
// cover its buttons; over its bottom right otherwise, never pushed off the screen's left edge.
import { Alert, AlertTitle, Box, Grow } from '@mui/material';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useNotificationContext, useNotify, useTranslate, type NotificationPayload } from 'react-admin';
import { useDrawerInset } from './drawerInset';
import { TOAST_DURATION_MS } from '#domain/limits';

type Severity = 'success' | 'error' | 'warning' | 'info';

/** How many toasts show at once. */
const MAX_TOASTS = 3;
/** A toast's narrowest width and its distance to the screen's edges and to a drawer, beyond the phone's size (sm). */
const TOAST_MIN_WIDTH = 300;
const GAP = 24;

interface ShownToast {
  key: number;
  payload: NotificationPayload;
}
let lastKey = 0;

export function Toasts() {
  const { notifications, setNotifications } = useNotificationContext();
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const seen = useRef(new WeakSet<NotificationPayload>());
  const drawer = useDrawerInset();

  // What react-admin queued joins the stack at once and leaves its queue.
  useEffect(() => {
    if (!notifications.length) return;
    const fresh = notifications.filter((n) => !seen.current.has(n));
    fresh.forEach((n) => seen.current.add(n));
    if (fresh.length) setToasts((shown) => [...shown, ...fresh.map((payload) => ({ key: ++lastKey, payload }))].slice(-MAX_TOASTS));
    setNotifications((queued) => queued.filter((n) => !notifications.includes(n)));
  }, [notifications, setNotifications]);

  if (!toasts.length) return null;
  return (
    <Box
      sx={{
        position: 'fixed',
        zIndex: 'snackbar',
        // The stack's box spans the screen's width (the toasts at its right, the pointer passing through it): a toast
        // never runs past the left edge, even beside a drawer.
        right: { xs: 8, sm: GAP },
        bottom: { xs: 8, sm: GAP },
        left: { xs: 8, sm: GAP },
        // Left of an open drawer where the screen leaves room for a toast there: not beside a drawer as wide as the
        // statement's (1120 px) on a 1280 px screen.
        ...(drawer > 0 && { [`@media (min-width: ${drawer + TOAST_MIN_WIDTH + 2 * GAP}px)`]: { right: drawer + GAP } }),
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-end',
        gap: 1,
        pointerEvents: 'none',
      }}
    >
      {toasts.map(({ key, payload }) => (
        <Toast key={key} toast={payload} onClose={() => setToasts((shown) => shown.filter((t) => t.key !== key))} />
      ))}
    </Box>
  );
}

function Toast({ toast, onClose }: { toast: NotificationPayload; onClose: () => void }) {
  const translate = useTranslate();
  const { message, type = 'info', notificationOptions = {} } = toast;
  const { messageArgs = {}, autoHideDuration } = notificationOptions;
  const { until } = notificationOptions as ToastOptions;
  const duration = autoHideDuration === undefined ? TOAST_DURATION_MS : autoHideDuration;
  const title = typeof messageArgs.title === 'string' ? messageArgs.title : undefined;
  const text = typeof message === 'string' ? translate(message, { _: message, ...messageArgs }) : message;

  // Its own timer, paused while the pointer is over it and resumed with the time left.
  const [hovered, setHovered] = useState(false);
  const left = useRef(duration);
  const expire = useEffectEvent(onClose);
  useEffect(() => {
    const remaining = left.current;
    if (hovered || remaining == null) return;
    const started = Date.now();
    const timer = setTimeout(expire, remaining);
    return () => {
      clearTimeout(timer);
      left.current = remaining - (Date.now() - started);
    };
  }, [hovered]);
  // Withdrawn by its sender once it is no longer true (a form's refusal, the form corrected), even while hovered.
  useEffect(() => {
    if (!until) return;
    if (until.aborted) return void expire();
    const withdraw = () => expire();
    until.addEventListener('abort', withdraw);
    return () => until.removeEventListener('abort', withdraw);
  }, [until]);

  return (
    <Grow in appear>
      <Alert
        severity={type as Severity}
        variant="filled"
        onClick={onClose}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
        role={type === 'error' ? 'alert' : 'status'}
        sx={{
          pointerEvents: 'auto',
          cursor: 'pointer',
          width: { xs: '100%', sm: 'auto' },
          minWidth: { sm: TOAST_MIN_WIDTH },
          maxWidth: 480,
          whiteSpace: 'pre-line',
          boxShadow: 6,
        }}
        data-testid="toast"
      >
        {title && <AlertTitle>{title}</AlertTitle>}
        {text}
      </Alert>
    </Grow>
  );
}

/**
 * The text under a toast's title, without the title said again: a server's refusal often begins with what the toast
 * is titled ('Annulation impossible : le relevé n° 12 a été appliqué…' under 'Annulation impossible'); it then shows
 * what follows, from a capital ('Le relevé n° 12 a été appliqué…'), or nothing when it says only the title.
 */
export function withoutTitle(title: string, message: string): string {
  const text = message.trimStart();
  const after = text.slice(title.length);
  if (!title || text.slice(0, title.length).toLocaleLowerCase('fr') !== title.toLocaleLowerCase('fr') || /^[\p{L}\p{N}]/u.test(after)) return message;
  const rest = after.replace(/^[\s:;,.–—-]+/u, '');
  return rest.charAt(0).toLocaleUpperCase('fr') + rest.slice(1);
}

interface ToastOptions {
  /** The toast goes when this signal aborts, before its time. */
  until?: AbortSignal;
}

/** Toasts with a title and a text, as the spec words them ("Succès" / "PEC créée", ...); the title is said once. */
export function useToast() {
  const notify = useNotify();
  const show =
    (type: Severity) =>
    (title: string, message = '', { until }: ToastOptions = {}) => {
      const text = withoutTitle(title, message);
      return notify(text || title, { type, messageArgs: { title: text ? title : undefined, _: text || title }, until });
    };
  return { success: show('success'), error: show('error'), warning: show('warning'), info: show('info') };
}
