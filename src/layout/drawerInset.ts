// The width of the open drawer, if any, so that the toasts (src/layout/Toasts.tsx) show beside it on a wide screen
// instead of over the drawer's buttons. A tiny external store: React has none built in for one shared number.
import { useSyncExternalStore } from 'react';

let width = 0;
const listeners = new Set<() => void>();

export function setDrawerInset(next: number) {
  if (next === width) return;
  width = next;
  listeners.forEach((listener) => listener());
}

export const useDrawerInset = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => width,
  );
