// The sidebar: who is signed in (initials), the two entries of the spec plus the dashboard and the payment statements
// (billing.payment), and the version.
import AssignmentIcon from '@mui/icons-material/Assignment';
import DashboardIcon from '@mui/icons-material/SpaceDashboard';
import PaymentsIcon from '@mui/icons-material/Payments';
import SettingsIcon from '@mui/icons-material/Settings';
import { Avatar, Box, Chip, Typography } from '@mui/material';
import { Menu as RaMenu, useGetIdentity, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import { hasAnyPermission, hasPermission, PAYMENT_PERMISSION, SETTINGS_ENTRY_PERMISSIONS } from '#domain/permissions';
import { initialsOf } from '#domain/format';
import { preloadPage } from '../pageLoaders';

/**
 * An entry's page starts loading when the pointer reaches it or the keyboard focuses it, not on the click: its code is
 * then there (or on its way) when the page is asked for, instead of the previous page staying without a word meanwhile.
 */
const preloadOnApproach = (path: string) => ({ onPointerEnter: () => preloadPage(path), onFocus: () => preloadPage(path) });

function SignedInUser() {
  const { identity } = useGetIdentity();
  const [open] = useSidebarState();
  if (!identity) return null;
  const fullName = String(identity.fullName ?? '');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: open ? 2 : 1.25, py: 2 }} data-testid="sidebar-user">
      <Avatar sx={{ width: 36, height: 36, bgcolor: 'primary.main', fontSize: 15, fontWeight: 700 }}>{initialsOf(fullName)}</Avatar>
      {open && (
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" fontWeight={600} noWrap>
            {fullName}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="div">
            {String(identity.email ?? '')}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

export function Menu() {
  const translate = useTranslate();
  const { permissions = [] } = usePermissions<string[]>();
  const [open] = useSidebarState();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <SignedInUser />
      <RaMenu>
        <RaMenu.Item to="/dashboard" {...preloadOnApproach('/dashboard')} primaryText={translate('pecflow.menu.dashboard')} leftIcon={<DashboardIcon />} />
        <RaMenu.Item
          to="/pec"
          {...preloadOnApproach('/pec')}
          primaryText={
            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
              {translate('pecflow.menu.pec')}
              <Chip component="span" label={translate('pecflow.menu.newBadge')} size="small" color="secondary" sx={{ height: 18, fontSize: 11 }} />
            </Box>
          }
          leftIcon={<AssignmentIcon />}
        />
        {hasPermission(permissions, PAYMENT_PERMISSION) && (
          <RaMenu.Item
            to="/payment_statements"
            {...preloadOnApproach('/payment_statements')}
            primaryText={translate('pecflow.menu.payments')}
            leftIcon={<PaymentsIcon />}
          />
        )}
        {hasAnyPermission(permissions, SETTINGS_ENTRY_PERMISSIONS) && (
          <RaMenu.Item to="/settings" {...preloadOnApproach('/settings')} primaryText={translate('pecflow.menu.settings')} leftIcon={<SettingsIcon />} />
        )}
      </RaMenu>
      <Box flex={1} />
      <Typography variant="caption" color="text.secondary" sx={{ px: open ? 2 : 1, py: 1.5 }} data-testid="app-version">
        {translate('pecflow.app.version')}
      </Typography>
    </Box>
  );
}
