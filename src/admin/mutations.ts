// The one convention of every write (settings and PEC): tried once more after 1 s when the server could not answer
// (network, 5xx; spec section 7), then ONE toast: 'Succès' with the text of the action, or 'Erreur' with the
// extracted reason (spec section 8). Pass WRITE_RETRY to react-admin's useCreate/useUpdate/useDelete/useMutation
// options and call `useMutationToasts()` in their onSuccess/onError.
import { useCallback, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { extractErrorMessage } from '#domain/errors';
import { useToast } from '../layout/Toasts';

export const WRITE_RETRY_DELAY_MS = 1_000;

/** A 4xx would fail again: only a failure without an answer, or a 5xx, is tried a second time. */
export const WRITE_RETRY = {
  retry: (failures: number, error: unknown) => {
    const status = (error as { status?: unknown })?.status;
    return failures < 1 && !(typeof status === 'number' && status < 500);
  },
  retryDelay: WRITE_RETRY_DELAY_MS,
};

export function useMutationToasts() {
  const translate = useTranslate();
  const toast = useToast();
  return {
    /** 'Succès' (or a title of its own) over the action's text. */
    success: (message: string, title = translate('pecflow.settings.toast.success')) => toast.success(title, message),
    /** 'Erreur' (or a title of its own: 'Erreur de création') over the server's reason. */
    failure: (error: unknown, title = translate('pecflow.settings.toast.error'), message = extractErrorMessage(error)) => toast.error(title, message),
  };
}

/**
 * Runs an action unless the previous one is still going: a double click sends once. The second click comes before
 * React has rendered the button disabled (isPending), so that alone does not stop it.
 */
export function useSingleFlight() {
  const running = useRef(false);
  return useCallback(async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    try {
      return await action();
    } finally {
      running.current = false;
    }
  }, []);
}
