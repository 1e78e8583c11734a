// Live updates from GET /api/events (Server-Sent Events): a robot result, a file changed by a colleague or a new
// notification reaches the open screens within a second, with no reload. A data-layer connection, mounted once by the
// shell: it refreshes the cached queries an event concerns, and no screen needs to know it exists. EventSource cannot
// send the bearer token: it connects with a short-lived ticket, and after any failure it reconnects with a fresh one
// (1 s, 2 s, 4 s... capped at 30 s), refreshing what it may have missed. A session ended elsewhere (a password changed
// or reset, an account disabled) closes the stream: the ticket is then refused, and the user is signed out at once
// (« Session expirée », or « Compte désactivé » / « Compte bloqué » as the server's reason says) rather than at the
// screen's next read.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLogoutIfAccessDenied } from 'ra-core';
import { retryDelay } from '../queryClient';
import { apiFetch } from './http';
import { NOTIFICATIONS_QUERY_KEY } from './notifications';
import { PEC_QUERY_KEYS } from './pec';

/** Several events in a burst (a run's steps) cause one refetch. */
const COALESCE_MS = 150;

/** The queries each event channel concerns: a file or a run refreshes the PEC list, files, figures and payment histories. */
const QUERY_KEYS: Record<'dossier' | 'workflow' | 'notification', readonly (readonly unknown[])[]> = {
  dossier: PEC_QUERY_KEYS,
  workflow: PEC_QUERY_KEYS,
  notification: [NOTIFICATIONS_QUERY_KEY],
};
type Channel = keyof typeof QUERY_KEYS;
const CHANNELS = Object.keys(QUERY_KEYS) as Channel[];

function refresher(queryClient: QueryClient) {
  const pending = new Set<readonly unknown[]>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (channel: Channel) => {
    for (const queryKey of QUERY_KEYS[channel]) pending.add(queryKey);
    timer ??= setTimeout(() => {
      timer = undefined;
      for (const queryKey of pending) void queryClient.invalidateQueries({ queryKey });
      pending.clear();
    }, COALESCE_MS);
  };
}

export function useLiveEvents(enabled = true) {
  const queryClient = useQueryClient();
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  // Its identity follows the route (react-router's navigate): read through a ref, so the stream stays open across pages.
  const endSessionIfDenied = useRef(logoutIfAccessDenied);
  useEffect(() => {
    endSessionIfDenied.current = logoutIfAccessDenied;
  });
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const refresh = refresher(queryClient);
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;

    const reconnect = () => {
      source?.close();
      source = undefined;
      if (stopped) return;
      retryTimer = setTimeout(connect, retryDelay(attempt++));
    };

    async function connect() {
      if (stopped) return;
      try {
        const { ticket } = await apiFetch<{ ticket: string }>('/api/events/ticket', { method: 'POST' });
        if (stopped) return;
        source = new EventSource(`/api/events?ticket=${encodeURIComponent(ticket)}`);
        source.addEventListener('ready', () => {
          // After a reconnection: what changed meanwhile.
          if (attempt > 0) CHANNELS.forEach(refresh);
          attempt = 0;
        });
        for (const channel of CHANNELS) source.addEventListener(channel, () => refresh(channel));
        // The ticket is single-use in practice (it expires in a minute): never let EventSource retry with it.
        source.onerror = reconnect;
      } catch (error) {
        // The authProvider's checkError decides: a 401 once the refresh was refused ends the session.
        if (!stopped && (await endSessionIfDenied.current(error))) return;
        reconnect();
      }
    }

    void connect();
    return () => {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
    };
  }, [enabled, queryClient]);
}
