// Every write of the settings screens: tried once more after 1 s when the server could not answer (spec section 7),
// then a "Succès" toast (and the resource's queries refreshed) or an "Erreur" toast with the reason (spec section 8).
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { extractErrorMessage } from '../domain/errors';
import { useToast } from '../layout/Toasts';

export const WRITE_RETRY_DELAY_MS = 1_000;

/** Runs `write`, and once more after a pause when it failed without an answer (network, 5xx): a 4xx would fail again. */
export async function retryOnce<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const status = (error as { status?: unknown })?.status;
    if (typeof status === 'number' && status < 500) throw error;
    await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_DELAY_MS));
    return write();
  }
}

export interface Toast {
  title: string;
  message: string;
}

export type WriteOutcome<T> = { ok: true; result: T } | { ok: false; error: unknown };

export function useWrite(resource: string) {
  const translate = useTranslate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  /** `success`: the toast's text under "Succès", or the whole toast from the result. `failure`: instead of "Erreur" and the reason. */
  async function write<T>(action: () => Promise<T>, success: string | ((result: T) => Toast), failure?: Toast): Promise<WriteOutcome<T>> {
    setBusy(true);
    try {
      const result = await retryOnce(action);
      // Only a success changed something (a refetched record would also reset the form and its error messages).
      await queryClient.invalidateQueries({ queryKey: [resource] });
      const done = typeof success === 'string' ? { title: translate('pecflow.settings.toast.success'), message: success } : success(result);
      toast.success(done.title, done.message);
      return { ok: true, result };
    } catch (error) {
      toast.error(failure?.title ?? translate('pecflow.settings.toast.error'), failure?.message ?? extractErrorMessage(error));
      return { ok: false, error };
    } finally {
      setBusy(false);
    }
  }

  return { write, busy };
}
