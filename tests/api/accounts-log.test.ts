// The request log never holds a link's token: whoever reads the logs (operations, a log platform) must not be able to
// open an account with a reset or invitation link still unused (the page's address and its API both carry it).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSmtp, linkIn, type TestSmtp } from './helpers/smtp';
import { startTestServer, type TestServer } from './helpers/server';

let server: TestServer;
let smtp: TestSmtp;
const lines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ smtpUrl: smtp.url, logLevel: 'info' }, { logStream: { write: (line: string) => void lines.push(line) } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

it('logs the requests of a reset link and of an invitation without their token', async () => {
  const email = 'audio@audition-horizon.fr';
  let before = smtp.received.length;
  expect((await server.request('POST', '/api/forgot-password', { body: { email } })).status).toBe(202);
  const reset = linkIn(await smtp.next(email, { after: before }), '/reset-password')
    .split('/')
    .pop()!;
  const admin = await server.login('admin@pecflow.fr');
  before = smtp.received.length;
  const invited = await server.request('POST', '/api/users', {
    token: admin,
    body: { firstName: 'Jade', lastName: 'Journal', email: 'jade@audition-horizon.fr', holding: '/api/holdings/1', sendInvitation: true },
  });
  expect(invited.status, invited.text).toBe(201);
  const invitation = linkIn(await smtp.next('jade@audition-horizon.fr', { after: before }), '/invitation')
    .split('/')
    .pop()!;

  // The pages the emails link to, then their API, as a browser calls them.
  await server.get(`/reset-password/${reset}`);
  expect((await server.get(`/api/forgot-password/${reset}`)).status).toBe(200);
  expect((await server.request('POST', `/api/forgot-password/${reset}`, { body: { password: 'Correct-Cheval-2026' } })).status).toBe(204);
  await server.get(`/invitation/${invitation}?utm=mail`);
  expect((await server.get(`/api/invitations/${invitation}`)).status).toBe(200);
  expect((await server.request('POST', `/api/invitations/${invitation}`, { body: { password: 'Correct-Cheval-2026' } })).status).toBe(204);

  const requests = lines.map((line) => JSON.parse(line) as { msg: string; method?: string; path?: string }).filter((entry) => entry.msg === 'requête');
  const paths = requests.map((entry) => `${entry.method} ${entry.path}`);
  // Each request is still logged, with the route it took.
  for (const expected of [
    'GET /reset-password/',
    'GET /api/forgot-password/',
    'POST /api/forgot-password/',
    'GET /invitation/',
    'GET /api/invitations/',
    'POST /api/invitations/',
  ]) {
    expect(
      paths.some((path) => path.startsWith(expected)),
      `${expected} in ${paths.join(', ')}`,
    ).toBe(true);
  }
  expect(lines.filter((line) => line.includes(reset) || line.includes(invitation))).toEqual([]);
});
