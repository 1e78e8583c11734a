// Live updates from GET /api/events (Server-Sent Events): a robot result, a file changed by a colleague or a new
// notification reaches the open screens within a second, with no reload. Mounted once by the notification bell, which
// is on every page of the shell. EventSource cannot send the bearer token: it connects with a short-lived ticket, and
// after any failure it reconnects with a fresh one (1 s, 2 s, 4 s... capped at 30 s), refreshing what it may have missed.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiFetch } from '../dataProvider/http';
import { NOTIFICATIONS_QUERY_KEY } from '../layout/NotificationBell';
import { retryDelay } from '../queryClient';

export const PEC_RESOURCE = 'pec_dossiers';
export const PEC_STATS_QUERY_KEY = ['pecflow', 'pec-stats'];

/** Several events in a burst (a run's steps) cause one refetch. */
const COALESCE_MS = 150;

export interface LiveEvent {
  type: string;
  dossierId?: number | null;
  executionId?: number;
  completed?: boolean;
  [key: string]: unknown;
}

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();

/** Screens that want the events themselves (the drawer, to announce a run's outcome). */
export function subscribeLiveEvents(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function refresher(queryClient: QueryClient) {
  const pending = new Set<'pec' | 'notifications'>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (what: 'pec' | 'notifications') => {
    pending.add(what);
    timer ??= setTimeout(() => {
      timer = undefined;
      if (pending.has('pec')) {
        void queryClient.invalidateQueries({ queryKey: [PEC_RESOURCE] });
        void queryClient.invalidateQueries({ queryKey: PEC_STATS_QUERY_KEY });
      }
      if (pending.has('notifications')) void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });
      pending.clear();
    }, COALESCE_MS);
  };
}

export function useLiveEvents(enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const refresh = refresher(queryClient);
    let source: EventSource | undefined;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;

    const dispatch = (channel: 'pec' | 'notifications') => (message: MessageEvent<string>) => {
      refresh(channel);
      let event: LiveEvent | undefined;
      try {
        event = JSON.parse(message.data) as LiveEvent;
      } catch {
        return;
      }
      for (const listener of listeners) listener(event);
    };

    const reconnect = () => {
      source?.close();
      source = undefined;
      if (stopped) return;
      retryTimer = setTimeout(connect, retryDelay(attempt++));
    };

    async function connect() {
      if (stopped) return;
      try {
        // Not through src/dataProvider/pec.ts: this module is in every page's bundle, the PEC calls are not.
        const { ticket } = await apiFetch<{ ticket: string }>('/api/events/ticket', { method: 'POST' });
        if (stopped) return;
        source = new EventSource(`/api/events?ticket=${encodeURIComponent(ticket)}`);
        source.addEventListener('ready', () => {
          // After a reconnection: what changed meanwhile.
          if (attempt > 0) {
            refresh('pec');
            refresh('notifications');
          }
          attempt = 0;
        });
        source.addEventListener('dossier', dispatch('pec'));
        source.addEventListener('workflow', dispatch('pec'));
        source.addEventListener('notification', dispatch('notifications'));
        // The ticket is single-use in practice (it expires in a minute): never let EventSource retry with it.
        source.onerror = reconnect;
      } catch {
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
