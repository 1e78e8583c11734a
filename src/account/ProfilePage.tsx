// /profile: read-only identity of the signed-in user (spec section 2, Profile).
import { Avatar, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { formatDate, initialsOf } from '../domain/format';
import { LoadingPage } from '../layout/LoadingPage';
import { useProfile } from './useProfile';

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
      <Title title={translate('pecflow.profile.title')} />
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
    </Box>
  );
}
