// The styles of what a list repeats on every row (status badges, cells kept on one line), written once for the page as
// static class rules: a row's components carry a class name, not an `sx` object that emotion would serialise again for
// each cell of each row at each render. Rendered once by the shell (src/layout/Layout.tsx).
import { GlobalStyles, type Theme } from '@mui/material';

export const ROW_CLASSES = {
  /** A cell kept on one line (numbers, dates, amounts, e-mail addresses): on a narrow screen the table scrolls. */
  nowrap: 'pecflow-nowrap',
  /** The one status badge (src/admin/StatusBadge.tsx). */
  status: 'pecflow-status',
  /** A list row reached with the keyboard: a visible ring (WCAG 2.4.7), drawn inside so the table's edge does not clip it. */
  focusable: 'pecflow-row',
} as const;

const COLORS = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;
const status = `.${ROW_CLASSES.status}`;
const ring = `${status}[data-pulsing]::after`;

const rowStyles = (theme: Theme) => ({
  [`.${ROW_CLASSES.nowrap}`]: { whiteSpace: 'nowrap' },
  [status]: { fontWeight: 600 },
  [`.${ROW_CLASSES.focusable}:focus-visible`]: { outline: `2px solid ${theme.palette.primary.main}`, outlineOffset: -2 },
  // A state still moving (a robot run): a ring around the chip fades in and out. Its text keeps full contrast (fading
  // the whole chip made it unreadable), and an opacity animation runs on the compositor, not on the main thread.
  '@keyframes pecflow-pulse': { '0%, 100%': { opacity: 0 }, '50%': { opacity: 1 } },
  [`${status}[data-pulsing]`]: { position: 'relative' },
  [ring]: {
    content: '""',
    position: 'absolute',
    inset: -3,
    borderRadius: 'inherit',
    border: `2px solid ${theme.palette.text.secondary}`,
    pointerEvents: 'none',
    animation: 'pecflow-pulse 1.6s ease-in-out infinite',
  },
  ...Object.fromEntries(COLORS.map((color) => [`${status}[data-pulsing][data-color="${color}"]::after`, { borderColor: theme.palette[color].main }])),
  '@media (prefers-reduced-motion: reduce)': { [ring]: { animation: 'none', opacity: 0 } },
});

export const RowStyles = () => <GlobalStyles styles={rowStyles} />;
