// The styles of what a list repeats on every row (status badges, cells kept on one line, rows dimmed while the next
// page is read), written once for the page as static class rules: a row's components carry a class name, not an `sx`
// object that emotion would serialise again for each cell of each row at each render. Rendered once by the shell
// (src/layout/Layout.tsx).
import { alpha, GlobalStyles, type Theme } from '@mui/material';

export const ROW_CLASSES = {
  /** A cell kept on one line (numbers, dates, amounts, e-mail addresses): on a narrow screen the table scrolls. */
  nowrap: 'pecflow-nowrap',
  /** The one status badge (src/admin/StatusBadge.tsx). */
  status: 'pecflow-status',
  /** A list row reached with the keyboard: a visible ring (WCAG 2.4.7), drawn inside so the table's edge does not clip it. */
  focusable: 'pecflow-row',
  /**
   * Around a list's table (or its empty state); with `data-reading` while another page, sort or filter is read: the rows
   * inert to the pointer at once (a click opens no row about to go), dimmed and under a thin bar moving over the top
   * after 150 ms (a quick answer does not blink).
   */
  reading: 'pecflow-reading',
  /** A column a phone leaves out (under MUI's `sm`), header and cells: `WIDE_ONLY_COLUMN`. */
  wide: 'pecflow-wide',
} as const;

/** A DataTable column shown from MUI's `sm` up: on a phone, the columns that say what a row is and its state fit. */
export const WIDE_ONLY_COLUMN = { headerClassName: ROW_CLASSES.wide, cellClassName: ROW_CLASSES.wide } as const;

const COLORS = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;
const status = `.${ROW_CLASSES.status}`;
const ring = `${status}[data-pulsing]::after`;
const reading = `.${ROW_CLASSES.reading}[data-reading]`;
const READING_DELAY = '150ms';

const rowStyles = (theme: Theme) => ({
  [`.${ROW_CLASSES.nowrap}`]: { whiteSpace: 'nowrap' },
  [theme.breakpoints.down('sm')]: {
    // Over MUI's table cell (`display: table-cell`, a class of the same weight inserted later).
    [`th.${ROW_CLASSES.wide}, td.${ROW_CLASSES.wide}`]: { display: 'none' },
    // A list's cells half as far apart on a phone: MUI's 16 px each side took a third of its width.
    [`.${ROW_CLASSES.reading} .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)`]: { paddingLeft: 8, paddingRight: 8 },
  },
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
  [`.${ROW_CLASSES.reading}`]: { position: 'relative' },
  [`${reading} tbody`]: { opacity: 0.5, transition: `opacity 150ms ease ${READING_DELAY}`, pointerEvents: 'none' },
  // An indeterminate progress bar, as MUI's LinearProgress draws it, without its code in a list's first load.
  '@keyframes pecflow-reading': { from: { backgroundPosition: '-50% 0' }, to: { backgroundPosition: '150% 0' } },
  '@keyframes pecflow-shown': { to: { opacity: 1 } },
  [`${reading}::before`]: {
    content: '""',
    position: 'absolute',
    top: 0,
    left: 0,
    right: 0,
    height: 3,
    zIndex: 3,
    pointerEvents: 'none',
    opacity: 0,
    backgroundColor: alpha(theme.palette.primary.main, 0.25),
    backgroundImage: `linear-gradient(${theme.palette.primary.main}, ${theme.palette.primary.main})`,
    backgroundSize: '30% 100%',
    backgroundRepeat: 'no-repeat',
    animation: `pecflow-shown 0s ${READING_DELAY} forwards, pecflow-reading 1.2s ease-in-out ${READING_DELAY} infinite`,
  },
  '@media (prefers-reduced-motion: reduce)': {
    [ring]: { animation: 'none', opacity: 0 },
    [`${reading}::before`]: { animation: `pecflow-shown 0s ${READING_DELAY} forwards`, backgroundSize: '100% 100%' },
  },
});

export const RowStyles = () => <GlobalStyles styles={rowStyles} />;
