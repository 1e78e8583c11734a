import { Typography } from '@mui/material';
import { AppBar as RaAppBar, TitlePortal, useTranslate } from 'react-admin';
import { NotificationBell } from './NotificationBell';
import { ThemeToggle } from './ThemeToggle';
import { UserMenu } from './UserMenu';

export function AppBar() {
  const translate = useTranslate();
  return (
    <RaAppBar userMenu={<UserMenu />} toolbar={<Toolbar />} color="primary">
      <Typography variant="h6" component="span" sx={{ fontWeight: 700, mr: 2, display: { xs: 'none', sm: 'block' } }}>
        {translate('pecflow.app.name')}
      </Typography>
      <TitlePortal />
    </RaAppBar>
  );
}

function Toolbar() {
  return (
    <>
      <NotificationBell />
      <ThemeToggle />
    </>
  );
}
