// react-admin's store in localStorage, except the theme, which lives under the plain key `theme`
// and survives logout (the store is reset on logout, the theme is not part of it).
import { localStorageStore, type Store } from 'react-admin';

export const THEME_KEY = 'theme';
export type ThemeName = 'dark' | 'light';

export function readTheme(): ThemeName {
  return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

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
    subscribe(key, callback) {
      if (key !== THEME_KEY) return base.subscribe(key, callback);
      themeListeners.add(callback);
      return () => themeListeners.delete(callback);
    },
  };
}
