// The bell: the first 5 notifications and the unread count, from GET /api/notifications.
import NotificationsIcon from '@mui/icons-material/Notifications';
import { Badge, Button, Divider, IconButton, ListItemText, ListSubheader, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { useLiveEvents } from '../dataProvider/events';
import { NOTIFICATIONS_QUERY_KEY, notificationsApi, type NotificationItem } from '../dataProvider/notifications';
import { NOTIFICATION_DROPDOWN_SIZE } from '#domain/limits';

export function NotificationBell() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The live events (always on in the shell): they refresh this list and whatever else an event concerns.
  useLiveEvents();
  const { data } = useQuery({
    queryKey: NOTIFICATIONS_QUERY_KEY,
    queryFn: () => notificationsApi.feed(NOTIFICATION_DROPDOWN_SIZE),
    refetchInterval: 60_000,
  });
  const items = data?.member.slice(0, NOTIFICATION_DROPDOWN_SIZE) ?? [];
  const unread = data?.unreadCount ?? 0;
  const refresh = () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_KEY });

  const open = async (item: NotificationItem) => {
    setAnchor(null);
    if (!item.read) await notificationsApi.markRead(item.id).catch(() => undefined);
    refresh();
    if (item.link) navigate(item.link);
  };

  const readAll = async () => {
    await notificationsApi.markAllRead().catch(() => undefined);
    refresh();
  };

  const label = translate('pecflow.notifications.open');
  return (
    <>
      <Tooltip title={translate('pecflow.notifications.title')}>
        <IconButton color="inherit" aria-label={label} onClick={(event) => setAnchor(event.currentTarget)}>
          <Badge badgeContent={unread} color="error" max={99} data-testid="notification-count">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { width: 360, maxWidth: '95vw' } } }}>
        {/* A subheader, which the menu passes over: opened from the keyboard, the focus is on the first notification
            (on a header box, it went nowhere and the arrows did not reach the notifications). */}
        <ListSubheader component="div" sx={{ px: 2, py: 1, display: 'flex', alignItems: 'center', justifyContent: 'space-between', lineHeight: 'normal' }}>
          <Typography variant="subtitle1" fontWeight={600} color="text.primary">
            {translate('pecflow.notifications.title')}
          </Typography>
          {unread > 0 && (
            <Button size="small" onClick={readAll}>
              {translate('pecflow.notifications.markAllRead')}
            </Button>
          )}
        </ListSubheader>
        <Divider />
        {items.length === 0 && (
          <MenuItem disabled>
            <ListItemText primary={translate('pecflow.notifications.empty')} />
          </MenuItem>
        )}
        {items.map((item) => (
          <MenuItem key={item.id} onClick={() => open(item)} sx={{ whiteSpace: 'normal', alignItems: 'flex-start' }}>
            <ListItemText primary={item.title} secondary={item.description ?? undefined} slotProps={{ primary: { fontWeight: item.read ? 400 : 700 } }} />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
