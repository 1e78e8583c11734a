// react-admin's store in localStorage, except the theme, which lives under the plain key `theme`
// and survives logout (the store is reset on logout, the theme is not part of it).
import { localStorageStore, type Store } from 'react-admin';

export const THEME_KEY = 'theme';
export type ThemeName = 'dark' | 'light';

export function readTheme(): ThemeName {
  return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

/** Store keys under this prefix are a user's own choices (a list's columns): they survive the logout's reset. */
const PREFERENCES = 'preferences.';
/** The store key of one of a user's choices, so that two people sharing a browser keep their own. */
export const preferenceKey = (userId: number | string | undefined, name: string) => `${PREFERENCES}${userId ?? 'anonyme'}.${name}`;
/** localStorageStore('1', 'Pecflow') keeps each key as RaStorePecflow.{key}. */
const STORAGE_PREFIX = 'RaStorePecflow.';

export function createAppStore(): Store {
  const base = localStorageStore('1', 'Pecflow');
  const themeListeners = new Set<(value: ThemeName) => void>();
  return {
    ...base,
    getItem(key, defaultValue) {
      return key === THEME_KEY ? (readTheme() as never) : base.getItem(key, defaultValue);
    },
    setItem(key, value) {
      if (key !== THEME_KEY) return base.setItem(key, value);
      const theme: ThemeName = value === 'light' ? 'light' : 'dark';
      localStorage.setItem(THEME_KEY, theme);
      document.documentElement.dataset.theme = theme;
      themeListeners.forEach((listener) => listener(theme));
    },
    // react-admin resets the store at logout; a user's own choices are put back (the store has no "keep" option).
    reset() {
      const kept = Object.keys(localStorage)
        .filter((key) => key.startsWith(STORAGE_PREFIX + PREFERENCES))
        .map((key) => [key, localStorage.getItem(key)!] as const);
      base.reset();
      for (const [key, value] of kept) localStorage.setItem(key, value);
    },
    subscribe(key, callback) {
      if (key !== THEME_KEY) return base.subscribe(key, callback);
      themeListeners.add(callback);
      return () => themeListeners.delete(callback);
    },
  };
}
