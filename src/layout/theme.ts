// Light and dark themes (dark by default), with the sidebar sizes of the spec: 256 px open, 64 px closed.
import { deepmerge } from '@mui/utils';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

const shared: RaThemeOptions = {
  sidebar: { width: 256, closedWidth: 64 },
  shape: { borderRadius: 8 },
  typography: { fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
    MuiTab: { styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
  },
};

export const lightTheme: RaThemeOptions = deepmerge(defaultLightTheme, {
  ...shared,
  palette: { mode: 'light', primary: { main: '#1565c0' }, secondary: { main: '#00897b' }, background: { default: '#f5f6f8' } },
});

export const darkTheme: RaThemeOptions = deepmerge(defaultDarkTheme, {
  ...shared,
  palette: { mode: 'dark', primary: { main: '#64b5f6' }, secondary: { main: '#4db6ac' }, background: { default: '#121212', paper: '#1b1d21' } },
});
