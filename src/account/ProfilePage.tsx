// /profile: read-only identity of the signed-in user (spec section 2, Profile), their password and second factor
// (issue 26, src/account/AccountSecurity.tsx), and the kinds of notification they choose to receive (GET and PATCH /api/user/notification-preferences; the server obeys the choice).
import { Alert, Avatar, Box, Card, CardContent, Chip, FormControlLabel, FormGroup, Skeleton, Stack, Switch, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { apiFetch } from '../dataProvider/http';
import { extractErrorMessage } from '#domain/errors';
import { formatDate, initialsOf } from '#domain/format';
import { NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, type NotificationKind, type NotificationPreferences } from '#domain/notifications';
import { LoadingPage } from '../layout/LoadingPage';
import { useToast } from '../layout/Toasts';
import { useProfile } from './useProfile';
import { PasswordCard, TwoFactorCard } from './AccountSecurity';

const PREFERENCES_PATH = '/api/user/notification-preferences';
const preferencesKey = ['pecflow', 'notification-preferences'];

/** One switch per kind; each change is saved at once and the saved answer replaces what is shown. */
function NotificationSettings() {
  const translate = useTranslate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { data, isError } = useQuery({
    queryKey: preferencesKey,
    queryFn: () => apiFetch<{ preferences: NotificationPreferences }>(PREFERENCES_PATH).then((answer) => answer.preferences),
  });
  const save = useMutation({
    mutationFn: (change: Partial<NotificationPreferences>) =>
      apiFetch<{ preferences: NotificationPreferences }>(PREFERENCES_PATH, {
        method: 'PATCH',
        body: change,
        headers: { 'Content-Type': 'application/merge-patch+json' },
      }).then((answer) => answer.preferences),
    onSuccess: (preferences, change) => {
      queryClient.setQueryData(preferencesKey, preferences);
      const [kind, on] = Object.entries(change)[0] as [NotificationKind, boolean];
      toast.success(
        translate('pecflow.profile.notifications.saved'),
        translate(`pecflow.profile.notifications.${on ? 'on' : 'off'}`, { kind: NOTIFICATION_KIND_LABELS[kind].label }),
      );
    },
    onError: (error) => toast.error(translate('pecflow.profile.notifications.error'), extractErrorMessage(error)),
  });
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="notification-settings-title">
      <CardContent>
        <Typography id="notification-settings-title" variant="h6" component="h2" fontWeight={700}>
          {translate('pecflow.profile.notifications.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {translate('pecflow.profile.notifications.subtitle')}
        </Typography>
        {isError ? (
          <Alert severity="error">{translate('pecflow.profile.notifications.loadError')}</Alert>
        ) : (
          <FormGroup data-testid="notification-preferences">
            {NOTIFICATION_KINDS.map((kind) =>
              data ? (
                <FormControlLabel
                  key={kind}
                  sx={{ py: 0.5, alignItems: 'flex-start' }}
                  control={<Switch checked={data[kind]} disabled={save.isPending} onChange={(_event, checked) => save.mutate({ [kind]: checked })} />}
                  label={
                    <Box sx={{ pt: 1 }}>
                      <Typography>{NOTIFICATION_KIND_LABELS[kind].label}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {NOTIFICATION_KIND_LABELS[kind].description}
                      </Typography>
                    </Box>
                  }
                />
              ) : (
                <Skeleton key={kind} height={48} />
              ),
            )}
          </FormGroup>
        )}
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: { sm: 2 }, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Typography color="text.secondary" sx={{ width: { sm: 180 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0 }}>
        {children}
      </Box>
    </Box>
  );
}

export default function ProfilePage() {
  const translate = useTranslate();
  const { data: user } = useProfile();
  if (!user) return <LoadingPage />;
  return (
    <Box sx={{ p: { xs: 1, sm: 3 }, maxWidth: 760 }}>
      <PageTitle title={translate('pecflow.profile.title')} />
      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2 }}>
            <Avatar sx={{ width: 56, height: 56, bgcolor: 'primary.main', fontWeight: 700 }}>{initialsOf(user.fullName)}</Avatar>
            <Typography variant="h5" component="h1" fontWeight={700}>
              {translate('pecflow.profile.title')}
            </Typography>
          </Stack>
          <Box component="dl" sx={{ m: 0 }}>
            <Row label={translate('pecflow.profile.fullName')}>
              <Typography data-testid="profile-fullname">{user.fullName}</Typography>
            </Row>
            <Row label={translate('pecflow.profile.email')}>
              <Typography data-testid="profile-email">{user.email}</Typography>
            </Row>
            <Row label={translate('pecflow.profile.status')}>
              <Chip
                data-testid="profile-status"
                size="small"
                color={user.isActive ? 'success' : 'default'}
                label={translate(user.isActive ? 'pecflow.profile.active' : 'pecflow.profile.inactive')}
              />
            </Row>
            <Row label={translate('pecflow.profile.roles')}>
              <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
                {[...new Map(user.permissionsDetails.flatMap((d) => d.groups).map((g) => [g.id, g])).values()].map((group) => (
                  <Chip key={group.id} size="small" variant="outlined" label={group.name} />
                ))}
              </Stack>
            </Row>
            <Row label={translate('pecflow.profile.memberSince')}>
              <Typography>{formatDate(user.createdAt)}</Typography>
            </Row>
          </Box>
        </CardContent>
      </Card>
      <PasswordCard user={user} />
      <TwoFactorCard />
      <NotificationSettings />
    </Box>
  );
}
