// /debug-permissions: a diagnostic tool. Shows the raw permissions, simulates typical users and checks
// common permissions with the same matcher the application and the server use.
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { hasPermission } from '#domain/permissions';
import { useProfile } from './useProfile';

type MockUser = 'superAdmin' | 'standard' | 'restricted' | 'legacy';

/** Simulated users, with what each should be allowed to do. */
const MOCK_USERS: Record<MockUser, { permissions: string[]; expected: string[] }> = {
  superAdmin: { permissions: ['admin.*'], expected: ['*'] },
  standard: {
    permissions: ['pec.view', 'pec.create', 'settings.pec.create', 'export.pec'],
    expected: ['pec.view', 'pec.create', 'settings.pec.create', 'export.pec'],
  },
  restricted: { permissions: ['pec.view'], expected: ['pec.view'] },
  legacy: {
    permissions: ['settings.*', 'pec.*'],
    expected: [
      'pec.view',
      'pec.create',
      'settings.pec.create',
      'settings.holdings.view',
      'settings.users.view',
      'settings.mutuelles.view',
      'settings.system.view',
      'settings.system.edit',
    ],
  },
};

const COMMON_PERMISSIONS = [
  'pec.view',
  'pec.create',
  'settings.pec.create',
  'delete.pec',
  'export.pec',
  'import.pec',
  'settings.holdings.view',
  'settings.users.view',
  'settings.mutuelles.view',
  'settings.system.view',
  'settings.system.edit',
  'audit.view',
];

const expectedFor = (user: MockUser, key: string) => MOCK_USERS[user].expected.includes('*') || MOCK_USERS[user].expected.includes(key);

export default function DebugPermissionsPage() {
  const translate = useTranslate();
  const { data: profile } = useProfile();
  const [subject, setSubject] = useState<'current' | MockUser>('current');
  const [report, setReport] = useState<{ passed: number; total: number } | null>(null);
  const held = subject === 'current' ? (profile?.permissions ?? []) : MOCK_USERS[subject].permissions;

  const runAll = () => {
    let passed = 0;
    let total = 0;
    for (const user of Object.keys(MOCK_USERS) as MockUser[]) {
      for (const key of COMMON_PERMISSIONS) {
        total += 1;
        if (hasPermission(MOCK_USERS[user].permissions, key) === expectedFor(user, key)) passed += 1;
      }
    }
    setReport({ passed, total });
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 3 }, maxWidth: 1000 }}>
      <PageTitle title={translate('pecflow.debug.title')} />
      <Typography variant="h5" component="h1" fontWeight={700}>
        {translate('pecflow.debug.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {translate('pecflow.debug.subtitle')}
      </Typography>

      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle1" fontWeight={600} gutterBottom>
            {translate('pecflow.debug.rawPermissions')}
          </Typography>
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap data-testid="raw-permissions">
            {(profile?.permissions ?? []).length === 0 && <Typography>{translate('pecflow.debug.none')}</Typography>}
            {(profile?.permissions ?? []).map((key) => (
              <Chip key={key} label={key} size="small" sx={{ fontFamily: 'monospace' }} />
            ))}
          </Stack>
        </CardContent>
      </Card>

      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="subtitle1" fontWeight={600} gutterBottom>
            {translate('pecflow.debug.simulate')}
          </Typography>
          <ToggleButtonGroup exclusive size="small" value={subject} onChange={(_e, value) => value && setSubject(value)} sx={{ flexWrap: 'wrap', mb: 2 }}>
            <ToggleButton value="current">{translate('pecflow.debug.current')}</ToggleButton>
            {(Object.keys(MOCK_USERS) as MockUser[]).map((user) => (
              <ToggleButton key={user} value={user}>
                {translate(`pecflow.debug.mockUsers.${user}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <Typography variant="subtitle2" gutterBottom>
            {translate('pecflow.debug.commonChecks')}
          </Typography>
          <Table size="small">
            <TableBody>
              {COMMON_PERMISSIONS.map((key) => {
                const granted = hasPermission(held, key);
                return (
                  <TableRow key={key} data-testid={`check-${key}`}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{key}</TableCell>
                    <TableCell align="right" sx={{ color: granted ? 'success.main' : 'error.main', fontWeight: 700 }}>
                      {granted ? '✓' : '✗'} {translate(granted ? 'pecflow.debug.granted' : 'pecflow.debug.denied')}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Button variant="contained" onClick={runAll}>
            {translate('pecflow.debug.runAll')}
          </Button>
          {report && (
            <>
              <Alert severity={report.passed === report.total ? 'success' : 'error'} sx={{ mt: 2 }} data-testid="debug-report">
                {translate('pecflow.debug.results', report)}
              </Alert>
              <Table size="small" sx={{ mt: 2 }}>
                <TableHead>
                  <TableRow>
                    <TableCell />
                    {(Object.keys(MOCK_USERS) as MockUser[]).map((user) => (
                      <TableCell key={user} align="center">
                        {translate(`pecflow.debug.mockUsers.${user}`)}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {COMMON_PERMISSIONS.map((key) => (
                    <TableRow key={key}>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{key}</TableCell>
                      {(Object.keys(MOCK_USERS) as MockUser[]).map((user) => {
                        const ok = hasPermission(MOCK_USERS[user].permissions, key) === expectedFor(user, key);
                        return (
                          <TableCell key={user} align="center" sx={{ color: ok ? 'success.main' : 'error.main' }}>
                            {hasPermission(MOCK_USERS[user].permissions, key) ? '✓' : '✗'}
                          </TableCell>
                        );
                      })}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
