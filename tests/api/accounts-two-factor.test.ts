// Issue 26, item 5: the second factor (TOTP, RFC 6238) with ten single-use recovery codes: enrolment from Mon profil,
// sign-in with a code or a recovery code (no token before it), wrong codes counted like wrong passwords, the
// enrolment a system setting makes mandatory, an administrator's reset; the secret encrypted, never returned again.
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/server';
import { auditRows, expectProblem, expectViolation, idWhere, loginAll, sqlRows, type Tokens } from './helpers/backoffice';

let server: TestServer;
let t: Tokens;
const PASSWORD = 'Pecflow2026!';

/** The code of `secret` for now, or for the next 30-second step (a code is accepted once). */
const codeOf = (secret: string, step = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + step * 30_000 });

beforeAll(async () => {
  server = await startTestServer();
  t = await loginAll(server, ['admin', 'horizonAdmin']);
});
afterAll(() => server?.close());

const signIn = (email: string, password = PASSWORD) => server.request('POST', '/api/login_check', { body: { email, password } });
const secondStep = (challenge: string, code: string) => server.request('POST', '/api/login_check/two-factor', { body: { challenge, code } });

async function enrol(email: string) {
  const token = await server.login(email);
  const setup = await server.request('POST', '/api/user/two-factor/setup', { token });
  expect(setup.status, setup.text).toBe(200);
  const { secret, otpauthUrl, qrCode } = setup.body;
  expect(otpauthUrl).toMatch(new RegExp(`^otpauth://totp/Pecflow:${encodeURIComponent(email)}\\?.*secret=${secret}`));
  expect(qrCode).toMatch(/^data:image\/png;base64,/);
  expectViolation(await server.request('POST', '/api/user/two-factor', { token, body: { code: '000000' } }), 'code', 'Code invalide.');
  const enabled = await server.request('POST', '/api/user/two-factor', { token, body: { code: codeOf(secret) } });
  expect(enabled.status, enabled.text).toBe(200);
  return { token, secret: secret as string, recoveryCodes: enabled.body.recoveryCodes as string[], enabled: enabled.body };
}

describe('enrolment from Mon profil', () => {
  it('shows a QR code once, is confirmed by a code, gives ten recovery codes and keeps the secret encrypted', async () => {
    const email = 'audio@audition-horizon.fr';
    const { token, secret, recoveryCodes, enabled } = await enrol(email);
    expect(enabled).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    // Never shown again, never stored in clear.
    expect((await server.get('/api/user/two-factor', token)).body).toEqual({
      enabled: true,
      enabledAt: expect.any(String),
      required: false,
      recoveryCodesLeft: 10,
    });
    expectProblem(await server.request('POST', '/api/user/two-factor/setup', { token }), 409, 'La double authentification est déjà activée.');
    const id = await idWhere(server, 'users', 'email', email);
    const user = await server.get(`/api/users/${id}`, t.horizonAdmin);
    expect(user.body.twoFactorEnabled).toBe(true);
    expect(user.text).not.toContain(secret);
    const [row] = await sqlRows<{ totp_secret_enc: string }>(server, 'select totp_secret_enc from users where id = $1', [id]);
    expect(row!.totp_secret_enc).toMatch(/^v1:/);
    expect(server.app.ctx.secrets.decrypt(row!.totp_secret_enc)).toBe(secret);
    const stored = JSON.stringify(await sqlRows(server, 'select * from recovery_codes where user_id = $1', [id]));
    for (const code of recoveryCodes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect((await auditRows(server, 'users', id)).map((r) => r.action)).toContain('user.two_factor_enable');
  });
});

describe('signing in with a second factor', () => {
  let secret: string;
  let recoveryCodes: string[];
  const email = 'assistant@audition-horizon.fr';
  beforeAll(async () => {
    ({ secret, recoveryCodes } = await enrol(email));
  });

  it('issues no token before the code; a code signs in once', async () => {
    const first = await signIn(email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ step: 'two_factor', challenge: expect.any(String) });
    // A wrong code, then the right one (of the next step: the enrolment used this one).
    expectProblem(await secondStep(first.body.challenge, '123456'), 401, 'Code invalide.');
    const code = codeOf(secret, 1);
    const done = await secondStep(first.body.challenge, code);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ token: expect.any(String), refresh_token: expect.any(String) });
    expect((await server.get('/api/user/profile', done.body.token)).body.email).toBe(email);
    // The challenge is spent, and the same code does not open a second sign-in.
    expectProblem(await secondStep(first.body.challenge, code), 401, 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    const again = await signIn(email);
    expectProblem(await secondStep(again.body.challenge, code), 401, 'Code invalide.');
  });

  it('accepts a recovery code once', async () => {
    const first = await signIn(email);
    const done = await secondStep(first.body.challenge, recoveryCodes[0]!.toUpperCase());
    expect(done.status, done.text).toBe(200);
    expect(done.body.token).toEqual(expect.any(String));
    const second = await signIn(email);
    expectProblem(await secondStep(second.body.challenge, recoveryCodes[0]!), 401, 'Code invalide.');
    expect((await server.get('/api/user/two-factor', done.body.token)).body.recoveryCodesLeft).toBe(9);
    const id = await idWhere(server, 'users', 'email', email);
    expect((await auditRows(server, 'users', id)).map((r) => r.action)).toContain('user.recovery_code_used');
  });

  it("ends on the server when the user chooses 'Recommencer la connexion': the challenge opens nothing after", async () => {
    const open = await signIn(email);
    expect(open.body.step).toBe('two_factor');
    const cancel = (challenge: unknown) => server.request('POST', '/api/login_check/cancel', { body: { challenge } });
    expect((await cancel(open.body.challenge)).status).toBe(204);
    expectProblem(await secondStep(open.body.challenge, codeOf(secret, 1)), 401, 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    // Answered alike for a challenge unknown or already ended; a missing one is a French 422.
    expect((await cancel(open.body.challenge)).status).toBe(204);
    expect((await cancel('x'.repeat(40))).status).toBe(204);
    expectViolation(await cancel(undefined), 'challenge', 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    // The whole sign-in's answer carries the profile, after the second factor too.
    const again = await signIn(email);
    const done = await secondStep(again.body.challenge, recoveryCodes[5]!);
    expect(done.status, done.text).toBe(200);
    expect(done.body.profile).toMatchObject({ email, permissions: expect.any(Array) });
  });

  it('counts wrong codes like wrong passwords: five from an address block the email there', async () => {
    await sqlRows(server, `delete from login_attempts where email = $1`, [email]);
    const first = await signIn(email);
    for (let i = 0; i < 4; i++) expectProblem(await secondStep(first.body.challenge, '000000'), 401, 'Code invalide.');
    // The fifth wrong code ends the challenge too.
    expectProblem(await secondStep(first.body.challenge, '000001'), 401, 'Code invalide.');
    expectProblem(await secondStep(first.body.challenge, codeOf(secret, 1)), 401, 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    // The email is now blocked for this address, even with the right password: its count of failures was reached.
    const blocked = await signIn(email);
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/);
    // A right password alone did not clear the count (only a whole sign-in does).
    await sqlRows(server, `delete from login_attempts where email = $1`, [email]);
  });
});

describe('a second factor the system setting requires', () => {
  it('makes the super administrator enrol at sign-in, before any token; an administrator can reset it, audited', async () => {
    const [setting] = await sqlRows<{ id: number; value: string }>(server, `select id, value from configs where key = 'security.two_factor_required'`);
    // The demo starts with the setting off (its accounts share a published password).
    expect(setting!.value).toBe('none');
    expect((await server.request('PUT', `/api/configs/${setting!.id}`, { token: t.admin, body: { value: 'platform_admins' } })).status).toBe(200);

    // An organisation administrator is not concerned by platform_admins.
    const direction = await signIn('direction@audition-horizon.fr');
    expect(direction.body.token, direction.text).toEqual(expect.any(String));
    const first = await signIn('admin@pecflow.fr');
    expect(first.body).toMatchObject({ step: 'two_factor_enrolment', challenge: expect.any(String), secret: expect.any(String) });
    expect(first.body.qrCode).toMatch(/^data:image\/png;base64,/);
    expect(first.body.token).toBeUndefined();
    const enrolment = (code: string) => server.request('POST', '/api/login_check/two-factor-enrolment', { body: { challenge: first.body.challenge, code } });
    expectProblem(await enrolment('999999'), 401, 'Code invalide.');
    const done = await enrolment(codeOf(first.body.secret));
    expect(done.status, done.text).toBe(200);
    expect(done.body.recoveryCodes).toHaveLength(10);
    const token = done.body.token as string;
    // Required: it cannot be turned off by its owner.
    expectProblem(await server.request('DELETE', '/api/user/two-factor', { token, body: { code: codeOf(first.body.secret, 1) } }), 409);
    expect((await server.get('/api/user/two-factor', token)).body).toMatchObject({ enabled: true, required: true });
    // From now on, a code at each sign-in.
    expect((await signIn('admin@pecflow.fr')).body.step).toBe('two_factor');

    // 'administrators' adds whoever manages users.
    expect((await server.request('PUT', `/api/configs/${setting!.id}`, { token, body: { value: 'administrators' } })).status).toBe(200);
    expect((await signIn('direction@audition-horizon.fr')).body.step).toBe('two_factor_enrolment');

    // The administrator resets the assistant's second factor (lost phone): audited, and the next sign-in needs no code.
    const assistant = await idWhere(server, 'users', 'email', 'assistant@audition-horizon.fr');
    expectProblem(
      await server.request('DELETE', `/api/users/${assistant}/two-factor`, {
        token: await server.login('audio@audition-horizon.fr', PASSWORD).catch(() => ''),
      }),
      401,
    );
    expect((await server.request('DELETE', `/api/users/${assistant}/two-factor`, { token })).status).toBe(204);
    const audit = (await auditRows(server, 'users', assistant)).at(-1)!;
    expect(audit).toMatchObject({ action: 'user.two_factor_reset', actor_email: 'admin@pecflow.fr' });
    expect((await signIn('assistant@audition-horizon.fr')).body.token).toEqual(expect.any(String));
    expectProblem(await server.request('DELETE', `/api/users/${assistant}/two-factor`, { token }), 409);
    expect((await server.request('PUT', `/api/configs/${setting!.id}`, { token, body: { value: 'none' } })).status).toBe(200);
  });

  it('enrols once: a second enrolment opened before the first was confirmed ends, and never replaces its secret', async () => {
    const [setting] = await sqlRows<{ id: number }>(server, `select id from configs where key = 'security.two_factor_required'`);
    const [superAdmin] = await sqlRows<{ id: number }>(server, `select id from roles where holding_id is null and permissions = '{admin.*}'`);
    const email = 'double-enrolment@audition-horizon.fr';
    const created = await server.request('POST', '/api/users', {
      token: t.admin,
      body: {
        firstName: 'Gaël',
        lastName: 'Doublon',
        email,
        password: 'Correct-Cheval-2026',
        holding: '/api/holdings/1',
        roles: [`/api/roles/${superAdmin!.id}`],
      },
    });
    expect(created.status, created.text).toBe(201);
    // Its owner has replaced the password the administrator typed (that step comes first: accounts-passwords.test.ts).
    await sqlRows(server, 'update users set password_must_change = false where id = $1', [created.body.id]);
    expect((await server.request('PUT', `/api/configs/${setting!.id}`, { token: t.admin, body: { value: 'platform_admins' } })).status).toBe(200);
    const open = async () => {
      const res = await signIn(email, 'Correct-Cheval-2026');
      expect(res.body.step, res.text).toBe('two_factor_enrolment');
      return res.body as { challenge: string; secret: string };
    };
    const enrol = (challenge: string, code: string) => server.request('POST', '/api/login_check/two-factor-enrolment', { body: { challenge, code } });
    const first = await open();
    const second = await open();
    expect((await enrol(first.challenge, codeOf(first.secret))).status).toBe(200);
    expectProblem(await enrol(second.challenge, codeOf(second.secret)), 401, 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    // The secret confirmed first is the one a sign-in asks for.
    const next = await signIn(email, 'Correct-Cheval-2026');
    expect(next.body.step).toBe('two_factor');
    expectProblem(await secondStep(next.body.challenge, codeOf(second.secret, 1)), 401, 'Code invalide.');
    expect((await secondStep(next.body.challenge, codeOf(first.secret, 1))).body.token).toEqual(expect.any(String));
    expect((await server.request('PUT', `/api/configs/${setting!.id}`, { token: t.admin, body: { value: 'none' } })).status).toBe(200);
  });

  it('lets a user turn an optional second factor off with a code', async () => {
    const { token, secret } = await enrol('lecture@audition-horizon.fr');
    // A wrong code is a mistake in the form (422), not a session gone (a 401 would make the browser refresh its
    // session and send the code again).
    expectViolation(await server.request('DELETE', '/api/user/two-factor', { token, body: { code: '000000' } }), 'code', 'Code invalide.');
    expect((await server.get('/api/user/two-factor', token)).body.enabled).toBe(true);
    expect((await server.request('DELETE', '/api/user/two-factor', { token, body: { code: codeOf(secret, 1) } })).status).toBe(204);
    expect((await signIn('lecture@audition-horizon.fr')).body.token).toEqual(expect.any(String));
  });
});
