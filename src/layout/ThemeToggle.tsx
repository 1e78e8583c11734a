import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { IconButton, Tooltip } from '@mui/material';
import { useTheme, useTranslate } from 'react-admin';

/** Switches between dark and light; the label names the mode the click leads to. */
export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  const translate = useTranslate();
  const isDark = theme !== 'light';
  const label = translate(isDark ? 'pecflow.theme.light' : 'pecflow.theme.dark');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" aria-label={label} onClick={() => setTheme(isDark ? 'light' : 'dark')}>
        {isDark ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}
