// App-wide query defaults (spec section 9): 3 retries with exponential delay from 1 s capped at 30 s,
// stale after 5 min, collected after 10 min, no refetch on window focus, refetch on mount and reconnect.
import { QueryClient } from '@tanstack/react-query';

export const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/** A 401 or 403 will not improve by asking again. */
const shouldRetry = (failureCount: number, error: unknown) => {
  const status = (error as { status?: number })?.status;
  if (status === 401 || status === 403 || status === 404 || status === 422) return false;
  return failureCount < 3;
};

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      retryDelay,
      staleTime: 5 * 60_000,
      gcTime: 10 * 60_000,
      refetchOnWindowFocus: false,
      refetchOnMount: true,
      refetchOnReconnect: true,
    },
    mutations: { retry: false },
  },
});
