import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { forwardRef } from 'react';
import { Link } from 'react-router-dom';
import { UserMenu as RaUserMenu, useLogout, useTranslate, useUserMenu } from 'react-admin';

const LinkItem = forwardRef<HTMLAnchorElement, { to: string; label: string; icon: React.ReactNode }>(function LinkItem({ to, label, icon }, ref) {
  const { onClose } = useUserMenu() ?? {};
  return (
    <MenuItem component={Link} to={to} ref={ref} onClick={onClose}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
});

function LogoutItem() {
  const logout = useLogout();
  const translate = useTranslate();
  return (
    <MenuItem onClick={() => logout()}>
      <ListItemIcon>
        <LogoutIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('pecflow.userMenu.logout')}</ListItemText>
    </MenuItem>
  );
}

/** Mon profil, Mes permissions, Déconnexion. */
export function UserMenu() {
  const translate = useTranslate();
  return (
    <RaUserMenu>
      <LinkItem to="/profile" label={translate('pecflow.userMenu.profile')} icon={<PersonIcon fontSize="small" />} />
      <LinkItem to="/permissions" label={translate('pecflow.userMenu.permissions')} icon={<VerifiedUserIcon fontSize="small" />} />
      <LogoutItem />
    </RaUserMenu>
  );
}
