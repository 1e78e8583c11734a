// Light and dark themes (dark by default), with the sidebar sizes of the spec: 256 px open, 64 px closed.
import type { Theme } from '@mui/material/styles';
import { deepmerge } from '@mui/utils';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import { skipToContent } from './skipToContent';

/** WCAG AA for normal text: the text on a coloured background (a badge, a filled chip, a button) is black when white would read below 4.5:1. */
const AA_CONTRAST = 4.5;
const PRIMARY = { light: '#1565c0', dark: '#64b5f6' };

const shared: RaThemeOptions = {
  sidebar: { width: 256, closedWidth: 64 },
  shape: { borderRadius: 8 },
  typography: { fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
  components: {
    // No ripple: each button, menu item, tab and checkbox would mount its ripple's elements (and a transition group)
    // at each render of a list or a menu. The keyboard's focus shows as an outline instead (focusRing below).
    MuiButtonBase: { defaultProps: { disableRipple: true } },
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => ({
          textTransform: 'none',
          fontWeight: 600,
          // A button that cannot act now but keeps the focus (aria-disabled, not disabled, which would drop the focus to
          // the page): drawn as a disabled one.
          '&[aria-disabled="true"]': { color: theme.palette.text.disabled, cursor: 'not-allowed', backgroundColor: 'transparent' },
        }),
      },
    },
    MuiTab: { styleOverrides: { root: { textTransform: 'none', fontWeight: 600 } } },
    // 'Aller au contenu' leaves the focus in the content (react-admin's blurs it), and reads as the page's text on a
    // paper: react-admin paints it in primary.contrastText on background.default, black on near-black in the dark theme
    // and white on near-white in the light one.
    RaSkipNavigationButton: {
      defaultProps: { onClick: skipToContent },
      styleOverrides: {
        root: ({ theme }: { theme: Theme }) => {
          const colors = { color: theme.palette.text.primary, backgroundColor: theme.palette.background.paper };
          return { ...colors, '&:hover': colors };
        },
      },
    },
    // A checkbox given an aria-label (react-admin's row selection: "Sélectionner cette ligne") carries it on its input,
    // where assistive technologies read it, instead of the decorative span around it (an ARIA error there).
    MuiCheckbox: {
      defaultProps: {
        slotProps: {
          root: () => ({ 'aria-label': undefined }),
          input: (ownerState: { 'aria-label'?: string }) => ({ 'aria-label': ownerState['aria-label'] }),
        },
      },
    },
  },
};

/**
 * The one focus ring, in the theme's primary colour (WCAG 2.4.7): without the ripple, a control reached with the
 * keyboard shows it (Mui-focusVisible); a text field, a select or a date field shows it while focused (Mui-focused, on
 * the input's box: MUI's underline alone was too thin to see), by the keyboard or the mouse, as browsers do for text.
 */
const focusRing = (color: string): RaThemeOptions['components'] => {
  const ring = { outline: `2px solid ${color}`, outlineOffset: 2 };
  return {
    ...shared.components,
    MuiButtonBase: { ...shared.components!.MuiButtonBase, styleOverrides: { root: { '&.Mui-focusVisible': ring } } },
    MuiInputBase: { styleOverrides: { root: { '&.Mui-focused': ring } } },
  };
};

export const lightTheme: RaThemeOptions = deepmerge(defaultLightTheme, {
  ...shared,
  components: focusRing(PRIMARY.light),
  palette: {
    mode: 'light',
    contrastThreshold: AA_CONTRAST,
    primary: { main: PRIMARY.light },
    secondary: { main: '#00897b' },
    background: { default: '#f5f6f8' },
  },
});

export const darkTheme: RaThemeOptions = deepmerge(defaultDarkTheme, {
  ...shared,
  components: focusRing(PRIMARY.dark),
  palette: {
    mode: 'dark',
    contrastThreshold: AA_CONTRAST,
    primary: { main: PRIMARY.dark },
    secondary: { main: '#4db6ac' },
    background: { default: '#121212', paper: '#1b1d21' },
  },
});
