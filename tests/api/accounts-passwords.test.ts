// Issue 26, items 1 to 4: the CNIL password policy, a weak existing password changed at sign-in, 'Mot de passe
// oublié ?' (the same answer for any address, a single-use 30-minute link by email, every session ended) and
// invitations. The emails go through a real SMTP server in the test process.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { ACCOUNT_MESSAGES } from '#domain/accounts';
import { startSmtp, linkIn, type TestSmtp } from './helpers/smtp';
import { startTestServer, type TestServer } from './helpers/server';
import {
  auditRows,
  expectProblem,
  expectViolation,
  firstSignIn,
  holdingIds,
  idWhere,
  loginAll,
  mergePatch,
  sqlRows,
  userId,
  type Tokens,
} from './helpers/backoffice';

let server: TestServer;
let smtp: TestSmtp;
let t: Tokens;
let org: { horizon: number; riviera: number };

const STRONG = 'Correct-Cheval-2026';
const TOO_SHORT = 'Le mot de passe doit contenir au moins 12 caractères (ou 14 pour une phrase de passe)';

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ smtpUrl: smtp.url, emailRateLimit: { max: 3, windowSeconds: 3600 } });
  t = await loginAll(server, ['admin', 'horizonAdmin']);
  org = await holdingIds(server);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const newUser = (email: string, extra: Record<string, unknown> = {}) => ({
  firstName: 'Élodie',
  lastName: 'Marchand',
  email,
  holding: `/api/holdings/${org.horizon}`,
  status: 'Active',
  ...extra,
});
const createUser = (email: string, extra: Record<string, unknown> = {}) =>
  server.request('POST', '/api/users', { token: t.horizonAdmin, body: newUser(email, extra) });

/** The user's sessions: a sign-in now, to check it is ended later. */
async function session(email: string, password: string) {
  const res = await server.request('POST', '/api/login_check', { body: { email, password } });
  expect(res.status, res.text).toBe(200);
  return res.body as { token: string; refresh_token: string };
}
async function sessionEnded(s: { token: string; refresh_token: string }) {
  expect((await server.get('/api/user/profile', s.token)).status).toBe(401);
  expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: s.refresh_token } })).status).toBe(401);
}

describe('the password policy (CNIL, délibération 2022-100)', () => {
  it('refuses weak, common and personal passwords with a French message saying what is wrong', async () => {
    const cases: [string, string][] = [
      ['123456', TOO_SHORT],
      ['Azerty123456', 'Le mot de passe doit contenir un caractère spécial (ou au moins 14 caractères pour une phrase de passe)'],
      ['azerty-123456', 'Le mot de passe doit contenir une majuscule (ou au moins 14 caractères pour une phrase de passe)'],
      ['motdepasse!!', 'Le mot de passe doit contenir une majuscule et un chiffre (ou au moins 14 caractères pour une phrase de passe)'],
      ['P@ssw0rd2024!', 'Ce mot de passe est trop courant ou trop facile à deviner : ce mot de passe est similaire à un mot de passe couramment utilisé'],
      ['Motdepasse123!', 'Ce mot de passe est trop courant ou trop facile à deviner'],
      ['Qsdfghjklm1234', 'Ce mot de passe est trop courant ou trop facile à deviner : les lignes droites de touches de votre clavier sont faciles à deviner'],
      ['le soleil brille sur la mer', 'Une phrase de passe doit contenir une majuscule et un chiffre, ou compter au moins 7 mots (elle en compte 6)'],
      ['Marchand-2026-Paris!', 'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur'],
      ['Elodie#Soleil-2026', 'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur'],
    ];
    for (const [password, message] of cases) expectViolation(await createUser('politique@audition-horizon.fr', { password }), 'password', message);
    expect(await sqlRows(server, `select id from users where email = 'politique@audition-horizon.fr'`)).toEqual([]);
    // A passphrase needs no symbol with upper case, lower case and digits, and no kind of character in 7 words.
    expect((await createUser('phrase@audition-horizon.fr', { password: 'Le soleil brille en 2026' })).status).toBe(201);
    expect((await createUser('mots@audition-horizon.fr', { password: 'le soleil brille sur la mer bleue' })).status).toBe(201);
    const created = await createUser('politique@audition-horizon.fr', { password: STRONG });
    expect(created.status, created.text).toBe(201);
    // The same rules when the password changes.
    expectViolation(
      await server.request('PATCH', `/api/users/${created.body.id}`, { token: t.horizonAdmin, body: { password: 'Azerty123456' }, headers: mergePatch }),
      'password',
      'Le mot de passe doit contenir un caractère spécial (ou au moins 14 caractères pour une phrase de passe)',
    );
  });

  it('takes its figures from the system settings, which GET /api/password-policy gives to any visitor', async () => {
    expect((await server.get('/api/password-policy')).body).toEqual({ minLength: 12, passphraseMinLength: 14, passphraseMinWords: 7, minScore: 4 });
    const [setting] = await sqlRows<{ id: number }>(server, `select id from configs where key = 'security.password_min_length'`);
    const put = (value: number) => server.request('PUT', `/api/configs/${setting!.id}`, { token: t.admin, body: { value } });
    expect((await put(13)).status).toBe(200);
    expect((await server.get('/api/password-policy')).body.minLength).toBe(13);
    expectViolation(
      await createUser('treize@audition-horizon.fr', { password: 'Xk7#pLm2!qRz' }),
      'password',
      'Le mot de passe doit contenir au moins 13 caractères (ou 14 pour une phrase de passe)',
    );
    expect((await put(12)).status).toBe(200);
    expect((await createUser('treize@audition-horizon.fr', { password: 'Xk7#pLm2!qRz' })).status).toBe(201);
  });

  it('refuses settings that contradict the CNIL or each other, with a French 422', async () => {
    const settingIds = Object.fromEntries(
      (await sqlRows<{ id: number; key: string }>(server, `select id, key from configs where key like 'security.pass%'`)).map((row) => [row.key, row.id]),
    );
    const put = (key: string, value: number) => server.request('PUT', `/api/configs/${settingIds[key]}`, { token: t.admin, body: { value } });
    expectViolation(
      await put('security.password_min_length', 10),
      'value',
      'Un mot de passe doit compter au moins 12 caractères selon la recommandation de la CNIL (délibération 2022-100).',
    );
    expectViolation(
      await put('security.passphrase_min_length', 12),
      'value',
      'Une phrase de passe doit compter au moins 14 caractères selon la recommandation de la CNIL (délibération 2022-100).',
    );
    expectViolation(
      await put('security.passphrase_min_words', 5),
      'value',
      'Une phrase de passe doit compter au moins 7 mots selon la recommandation de la CNIL (délibération 2022-100).',
    );
    expectViolation(
      await put('security.password_min_length', 16),
      'value',
      'La longueur minimale d’une phrase de passe (14) ne peut pas être inférieure à celle d’un mot de passe (16).',
    );
    expect((await server.get('/api/password-policy')).body).toEqual({ minLength: 12, passphraseMinLength: 14, passphraseMinWords: 7, minScore: 4 });
    // Raised together, in an order that never contradicts: taken, and the words' figure applies at once.
    expect((await put('security.passphrase_min_length', 16)).status).toBe(200);
    expect((await put('security.password_min_length', 16)).status).toBe(200);
    expect((await put('security.passphrase_min_words', 8)).status).toBe(200);
    expectViolation(
      await createUser('huit@audition-horizon.fr', { password: 'le soleil brille sur la mer bleue' }),
      'password',
      'Une phrase de passe doit contenir une majuscule et un chiffre, ou compter au moins 8 mots (elle en compte 7)',
    );
    expectViolation(
      await put('security.passphrase_min_length', 15),
      'value',
      'La longueur minimale d’une phrase de passe (15) ne peut pas être inférieure à celle d’un mot de passe (16).',
    );
    for (const [key, value] of [
      ['security.passphrase_min_words', 7],
      ['security.password_min_length', 12],
      ['security.passphrase_min_length', 14],
    ] as const)
      expect((await put(key, value)).status).toBe(200);
  });
});

describe('a weak existing password', () => {
  it('must be changed at the next sign-in, before any token is issued', async () => {
    const id = await idWhere(server, 'users', 'email', 'lecture@audition-horizon.fr');
    await sqlRows(server, 'update users set password_hash = $1 where id = $2', [await hashPassword('secret1'), id]);
    const first = await server.request('POST', '/api/login_check', { body: { email: 'lecture@audition-horizon.fr', password: 'secret1' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ step: 'password_change', challenge: expect.any(String), owner: { email: 'lecture@audition-horizon.fr' } });
    expect(first.body.message).toContain('choisissez-en un nouveau');
    expect(first.body.token).toBeUndefined();
    expect(first.body.refresh_token).toBeUndefined();
    const change = (password: string, challenge = first.body.challenge) =>
      server.request('POST', '/api/login_check/password', { body: { challenge, password } });
    expectViolation(await change('secret1'), 'password', TOO_SHORT);
    expectViolation(await change('Lecture-Seule-2026'), 'password', 'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur');
    expectProblem(await change(STRONG, 'autre-chose'), 401, 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.');
    const done = await change(STRONG);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ token: expect.any(String), refresh_token: expect.any(String) });
    expect((await server.get('/api/user/profile', done.body.token)).body.email).toBe('lecture@audition-horizon.fr');
    // The step is passed once; the old password is gone; the new one signs in at once.
    expectProblem(await change('Autre-Cheval-2026'), 401);
    expect((await server.request('POST', '/api/login_check', { body: { email: 'lecture@audition-horizon.fr', password: 'secret1' } })).status).toBe(401);
    expect((await session('lecture@audition-horizon.fr', STRONG)).token).toEqual(expect.any(String));
    expect((await auditRows(server, 'users', id)).map((r) => r.action)).toContain('user.password_change');
  });

  it('opens nothing once the password has changed: a sign-in left halfway with the old one ends', async () => {
    // Someone who knew the old, weak password starts a sign-in; its owner changes the password meanwhile (a reset
    // link, then an administrator): the stranger's challenge no longer sets a password, and no token is issued.
    const email = 'ancien@audition-horizon.fr';
    const created = await createUser(email, { password: STRONG });
    expect(created.status, created.text).toBe(201);
    const weaken = async () => sqlRows(server, 'update users set password_hash = $1 where id = $2', [await hashPassword('secret1'), created.body.id]);
    const stranger = async () => {
      const opened = await server.request('POST', '/api/login_check', { body: { email, password: 'secret1' } });
      expect(opened.body.step, opened.text).toBe('password_change');
      return opened.body.challenge as string;
    };
    const finish = (challenge: string) => server.request('POST', '/api/login_check/password', { body: { challenge, password: 'Intrus-Cheval-2026' } });
    const expired = 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.';

    await weaken();
    const byLink = await stranger();
    const before = smtp.received.length;
    await server.request('POST', '/api/forgot-password', { body: { email } });
    const token = linkIn(await smtp.next(email, { after: before }), '/reset-password')
      .split('/')
      .pop()!;
    expect((await server.request('POST', `/api/forgot-password/${token}`, { body: { password: 'Autre-Cheval-2026' } })).status).toBe(204);
    expectProblem(await finish(byLink), 401, expired);

    await weaken();
    const byAdministrator = await stranger();
    const changed = await server.request('PATCH', `/api/users/${created.body.id}`, {
      token: t.horizonAdmin,
      body: { password: 'Troisieme-Cheval-2026' },
      headers: mergePatch,
    });
    expect(changed.status, changed.text).toBe(200);
    expectProblem(await finish(byAdministrator), 401, expired);
    // The owner's password is the one the administrator set (to be replaced at once), not the stranger's.
    await firstSignIn(server, email, 'Troisieme-Cheval-2026');
    expect((await server.request('POST', '/api/login_check', { body: { email, password: 'Intrus-Cheval-2026' } })).status).toBe(401);
  });
});

describe('a password typed by an administrator', () => {
  it('is replaced by its owner at the first sign-in, before anything else; the owner typing their own is not asked', async () => {
    const email = 'tapee@audition-horizon.fr';
    const created = await createUser(email, { password: STRONG });
    expect(created.status, created.text).toBe(201);
    const first = await server.request('POST', '/api/login_check', { body: { email, password: STRONG } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      step: 'password_change',
      challenge: expect.any(String),
      message: 'Votre mot de passe a été choisi par un administrateur : choisissez le vôtre pour continuer.',
      owner: { email, firstName: 'Élodie', lastName: 'Marchand' },
    });
    // No token, and the typed password cannot be kept.
    expect(first.body).not.toHaveProperty('token');
    const choose = (password: string) => server.request('POST', '/api/login_check/password', { body: { challenge: first.body.challenge, password } });
    expectViolation(await choose(STRONG), 'password', 'Choisissez un mot de passe différent de l’actuel');
    expectViolation(await choose('court'), 'password', TOO_SHORT);
    const chosen = await choose('Choisi-Par-Moi-2026!');
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.token).toEqual(expect.any(String));
    expect((await sqlRows(server, 'select password_must_change from users where id = $1', [created.body.id]))[0]).toEqual({ password_must_change: false });
    // Then a plain sign-in, with the password the owner chose; the typed one no longer opens anything.
    expect((await session(email, 'Choisi-Par-Moi-2026!')).token).toEqual(expect.any(String));
    expect((await server.request('POST', '/api/login_check', { body: { email, password: STRONG } })).status).toBe(401);

    // A reset typed in the user form: asked again.
    const reset = await server.request('PATCH', `/api/users/${created.body.id}`, {
      token: t.horizonAdmin,
      body: { password: 'Remis-Par-Admin-2026!' },
      headers: mergePatch,
    });
    expect(reset.status, reset.text).toBe(200);
    await firstSignIn(server, email, 'Remis-Par-Admin-2026!');

    // An administrator typing their own password in the form is not asked to change it.
    const self = await userId(server, 'horizonAdmin');
    const own = await server.request('PATCH', `/api/users/${self}`, {
      token: t.horizonAdmin,
      body: { password: 'Mon-Propre-Choix-2026!' },
      headers: mergePatch,
    });
    expect(own.status, own.text).toBe(200);
    expect((await sqlRows(server, 'select password_must_change from users where id = $1', [self]))[0]).toEqual({ password_must_change: false });
    // Its sessions ended with the change (tokens of the same second included): a new one, a second later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    t.horizonAdmin = (await session('direction@audition-horizon.fr', 'Mon-Propre-Choix-2026!')).token;
    await sqlRows(server, 'update users set password_hash = $1 where id = $2', [await hashPassword('Pecflow2026!'), self]);
  });
});

describe('Mon profil: a new password', () => {
  it('needs the current one, follows the policy, keeps this session and ends the others', async () => {
    const email = 'profil@audition-horizon.fr';
    expect((await createUser(email, { password: 'Tape-Par-Admin-2026!' })).status).toBe(201);
    const here = await firstSignIn(server, email, 'Tape-Par-Admin-2026!', STRONG);
    const elsewhere = await session(email, STRONG);
    const change = (currentPassword: string, password: string) =>
      server.request('POST', '/api/user/password', { token: here.token, body: { currentPassword, password } });
    expectViolation(await change('Pas-Le-Bon-2026', 'Autre-Cheval-2026'), 'currentPassword', 'Mot de passe actuel incorrect');
    expectViolation(await change(STRONG, 'court'), 'password', TOO_SHORT);
    expectViolation(await change(STRONG, STRONG), 'password', 'Choisissez un mot de passe différent de l’actuel');
    expect((await change(STRONG, 'Autre-Cheval-2026')).status).toBe(204);
    // This session goes on (its refresh too); the other one is ended.
    expect((await server.get('/api/user/profile', here.token)).status).toBe(200);
    expect((await server.request('POST', '/api/token/refresh', { body: { refresh_token: here.refresh_token } })).status).toBe(200);
    await sessionEnded(elsewhere);
    await session(email, 'Autre-Cheval-2026');
    const id = await idWhere(server, 'users', 'email', email);
    expect((await auditRows(server, 'users', id)).map((r) => r.action)).toContain('user.password_change');
  });
});

describe("'Mot de passe oublié ?'", () => {
  const forgot = (email: string, from = '192.0.2.1') =>
    server.request('POST', '/api/forgot-password', { body: { email }, headers: { 'x-forwarded-for': from } });

  it('answers the same for a known and an unknown address, and emails a link to the known one only', async () => {
    const before = smtp.received.length;
    const known = await forgot('audio@audition-horizon.fr');
    const unknown = await forgot('personne@audition-horizon.fr');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(known.body.message).toContain('Si un compte correspond à cette adresse');
    const mail = await smtp.next('audio@audition-horizon.fr', { after: before });
    expect(mail.subject).toBe('Pecflow (Audition Horizon) : réinitialisation de votre mot de passe');
    const [owner] = await sqlRows<{ first_name: string }>(server, `select first_name from users where email = 'audio@audition-horizon.fr'`);
    expect(mail.text).toContain(`Bonjour ${owner!.first_name},`);
    expect(mail.text).toContain('Audition Horizon');
    expect(mail.text).toContain('valable 30 minutes');
    expect(mail.html).toContain('Choisir un nouveau mot de passe');
    expect(mail.html).toContain(linkIn(mail, '/reset-password'));
    expect(linkIn(mail, '/reset-password').startsWith(`${server.url}/reset-password/`)).toBe(true);
    // The unknown address got nothing (its job ran beside the other one's), and both requests are audited.
    await new Promise((r) => setTimeout(r, 1500));
    // (The other tests' notices to their owners may arrive meanwhile: only the links count here.)
    const links = smtp.received.slice(before).filter((m) => m.subject.endsWith('réinitialisation de votre mot de passe'));
    expect(links.map((m) => m.to)).toEqual(['audio@audition-horizon.fr']);
    expect(smtp.received.slice(before).filter((m) => m.to === 'personne@audition-horizon.fr')).toEqual([]);
    const audits = await sqlRows<{ changes: { email?: string; emailHmac?: string; account: boolean } }>(
      server,
      `select changes from audit_logs where action = 'user.password_reset_request' order by id`,
    );
    expect(audits.map((a) => [a.changes.email, a.changes.account])).toEqual(
      expect.arrayContaining([
        ['audio@audition-horizon.fr', true],
        [undefined, false],
      ]),
    );
    // An address no account has is kept as its keyed hash (HMAC-SHA256 with APP_SECRET_KEY), never as typed.
    const unknownAudit = audits.find((a) => !a.changes.account)!;
    expect(unknownAudit.changes.emailHmac).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await sqlRows(server, 'select changes from audit_logs'))).not.toContain('personne@audition-horizon.fr');
    // Never the link's token: only its hash is stored.
    const token = linkIn(mail, '/reset-password').split('/').pop()!;
    expect(JSON.stringify(await sqlRows(server, 'select * from account_tokens'))).not.toContain(token);
  });

  it('sets a new password under the policy once, ends every other session, and the link then no longer works', async () => {
    const email = 'assistant@audition-horizon.fr';
    const open = await session(email, 'Pecflow2026!');
    const before = smtp.received.length;
    await forgot(email);
    const link = linkIn(await smtp.next(email, { after: before }), '/reset-password');
    const token = link.split('/').pop()!;
    const read = await server.get(`/api/forgot-password/${token}`);
    expect(read.status).toBe(200);
    expect(read.body.user).toMatchObject({ email, organisation: 'Audition Horizon' });
    expect(read.body.passwordPolicy).toEqual({ minLength: 12, passphraseMinLength: 14, passphraseMinWords: 7, minScore: 4 });
    const post = (password: string) => server.request('POST', `/api/forgot-password/${token}`, { body: { password } });
    expectViolation(await post('court'), 'password', TOO_SHORT);
    // A reset chooses a new password: the current one, which the user may have forgotten, is refused (the link still serves).
    expectViolation(await post('Pecflow2026!'), 'password', 'Choisissez un mot de passe différent de l’actuel');
    expect((await post(STRONG)).status).toBe(204);
    await sessionEnded(open);
    expect((await server.request('POST', '/api/login_check', { body: { email, password: 'Pecflow2026!' } })).status).toBe(401);
    await session(email, STRONG);
    // Single use.
    expectProblem(await post('Autre-Cheval-2026'), 404, 'Ce lien n’est plus valide : il a déjà servi ou il a expiré.');
    expect((await server.get(`/api/forgot-password/${token}`)).status).toBe(404);
    const id = await idWhere(server, 'users', 'email', email);
    const actions = (await auditRows(server, 'users', id)).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['user.password_reset_request', 'user.password_reset', 'user.password_reset_refused']));
  });

  it('expires after 30 minutes, and a new link voids the previous one', async () => {
    const email = 'direction@optique-riviera.fr';
    let before = smtp.received.length;
    await forgot(email, '192.0.2.7');
    const first = linkIn(await smtp.next(email, { after: before }), '/reset-password')
      .split('/')
      .pop()!;
    before = smtp.received.length;
    await forgot(email, '192.0.2.7');
    const second = linkIn(await smtp.next(email, { after: before }), '/reset-password')
      .split('/')
      .pop()!;
    expect(second).not.toBe(first);
    expect((await server.get(`/api/forgot-password/${first}`)).status).toBe(404);
    expect((await server.get(`/api/forgot-password/${second}`)).status).toBe(200);
    const [row] = await sqlRows<{ minutes: number }>(
      server,
      `select round(extract(epoch from expires_at - created_at) / 60)::int as minutes from account_tokens where used_at is null and purpose = 'password_reset' order by id desc limit 1`,
    );
    expect(row!.minutes).toBe(30);
    await sqlRows(server, `update account_tokens set expires_at = now() - interval '1 second' where used_at is null`);
    expect((await server.get(`/api/forgot-password/${second}`)).status).toBe(404);
    expect((await server.request('POST', `/api/forgot-password/${second}`, { body: { password: STRONG } })).status).toBe(404);
  });

  it('is limited per email address whatever the client address, answering 429 in French alike for any address', async () => {
    // The limit of this server is 3 an hour per address (RATE_LIMIT_EMAIL_MAX); the fourth is refused.
    for (const email of ['limite@audition-horizon.fr', 'lecture@audition-horizon.fr']) {
      for (let i = 0; i < 3; i++) expect((await forgot(email, `198.51.100.${i}`)).status).toBe(202);
      const refused = await forgot(email, '198.51.100.99');
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.body.detail).toMatch(/^Trop de demandes pour cette adresse : réessayez dans \d+ minutes?\.$/);
    }
  });

  it('counts one address however it is typed (case, spaces): the limit cannot be passed by writing it otherwise', async () => {
    for (const typed of ['Espaces@audition-horizon.fr', ' espaces@audition-horizon.fr', 'ESPACES@AUDITION-HORIZON.FR  ']) {
      expect((await forgot(typed)).status).toBe(202);
    }
    const refused = await forgot('\tespaces@Audition-Horizon.fr');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Trop de demandes pour cette adresse/);
  });

  it('refuses a malformed address in French, and never answers 500 for a strange token', async () => {
    expectViolation(await forgot('pas-un-email'), 'email', 'Format d’email invalide');
    expect((await server.get('/api/forgot-password/x')).status).toBe(404);
    expect((await server.get(`/api/forgot-password/${'a'.repeat(99)}`)).status).toBe(404);
    expect((await server.request('POST', '/api/forgot-password/%00%01', { body: { password: STRONG } })).status).toBeLessThan(500);
  });

  it('answers an address longer than 254 characters like any other, with no job, no count and no audit', async () => {
    const huge = `${'a'.repeat(100_000)}@audition-horizon.fr`;
    const long = `${'b'.repeat(250)}@x.fr`;
    // Past the per-address limit (3 here), from one client address: never a 429, a 422 or a 500.
    for (let i = 0; i < 5; i++) {
      const res = await forgot(huge, '192.0.2.77');
      expect(res.status, res.text).toBe(202);
      expect(res.body).toEqual({ message: ACCOUNT_MESSAGES.forgotSent });
    }
    expect((await forgot(long)).status).toBe(202);
    // No job ran for them: no audit holds their keyed hash (which an unknown address's request would leave).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const key = Buffer.from(server.config.appSecretKey, 'hex');
    const hmacs = [huge, long].map((email) => createHmac('sha256', key).update(`forgot-password:${email.toLowerCase()}`).digest('hex'));
    const audits = await sqlRows<{ changes: { emailHmac?: string } }>(server, `select changes from audit_logs where action = 'user.password_reset_request'`);
    expect(audits.filter((a) => hmacs.includes(a.changes.emailHmac ?? ''))).toEqual([]);
    expect(JSON.stringify(audits)).not.toContain('aaaaaaaaaa');
  });
});

describe('invitations', () => {
  it('creates an account without a password, emails a 7-day link, and the user chooses their password with it', async () => {
    const email = 'invitee@audition-horizon.fr';
    const before = smtp.received.length;
    const created = await createUser(email, { sendInvitation: true, firstName: 'Inès', lastName: 'Vitée' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.invitationSentAt).toEqual(expect.any(String));
    expect(created.body).not.toHaveProperty('sendInvitation');
    const [row] = await sqlRows<{ password_hash: string | null }>(server, 'select password_hash from users where id = $1', [created.body.id]);
    expect(row!.password_hash).toBeNull();
    // Nobody signs in to it meanwhile, whatever the password tried.
    expect((await server.request('POST', '/api/login_check', { body: { email, password: 'Pecflow2026!' } })).status).toBe(401);

    const mail = await smtp.next(email, { after: before });
    expect(mail.subject).toBe('Pecflow (Audition Horizon) : votre invitation');
    expect(mail.text).toContain('Bonjour Inès,');
    expect(mail.text).toMatch(/a créé un compte Pecflow pour Audition Horizon/);
    expect(mail.text).toContain('valable 7 jours');
    const token = linkIn(mail, '/invitation').split('/').pop()!;
    const read = await server.get(`/api/invitations/${token}`);
    expect(read.body.user).toMatchObject({ email, firstName: 'Inès', lastName: 'Vitée' });
    expect(read.body.passwordPolicy.minLength).toBe(12);
    // Its own password, under the policy; once.
    expectViolation(
      await server.request('POST', `/api/invitations/${token}`, { body: { password: 'Vitee-Ines-2026!' } }),
      'password',
      'Le mot de passe ne doit contenir ni le nom, ni le prénom, ni l’email de l’utilisateur',
    );
    expect((await server.request('POST', `/api/invitations/${token}`, { body: { password: STRONG } })).status).toBe(204);
    expect((await server.request('POST', `/api/invitations/${token}`, { body: { password: 'Autre-Cheval-2026' } })).status).toBe(404);
    await session(email, STRONG);
    expect((await server.get(`/api/users/${created.body.id}`, t.horizonAdmin)).body.invitationSentAt).toBeNull();
    // An accepted invitation is not sent again.
    expectProblem(await server.request('POST', `/api/users/${created.body.id}/invitation`, { token: t.horizonAdmin }), 409);
    const actions = (await auditRows(server, 'users', created.body.id)).map((r) => r.action);
    expect(actions.sort()).toEqual(['user.create', 'user.invitation', 'user.invitation_accepted', 'user.invitation_refused']);
  });

  it("'Renvoyer l'invitation' sends a new link and voids the previous one, within the administrator's organisation", async () => {
    const email = 'relance@audition-horizon.fr';
    let before = smtp.received.length;
    const created = await createUser(email, { sendInvitation: true });
    const first = linkIn(await smtp.next(email, { after: before }), '/invitation')
      .split('/')
      .pop()!;
    before = smtp.received.length;
    const again = await server.request('POST', `/api/users/${created.body.id}/invitation`, { token: t.horizonAdmin });
    expect(again.status).toBe(202);
    expect(again.body.message).toBe('Invitation envoyée');
    const second = linkIn(await smtp.next(email, { after: before }), '/invitation')
      .split('/')
      .pop()!;
    expect((await server.get(`/api/invitations/${first}`)).status).toBe(404);
    expect((await server.get(`/api/invitations/${second}`)).status).toBe(200);
    // Another organisation's administrator does not learn the user exists.
    const riviera = await server.login('direction@optique-riviera.fr');
    expect((await server.request('POST', `/api/users/${created.body.id}/invitation`, { token: riviera })).status).toBe(404);
  });

  it('voids the links still unused when the address or the password changes: a link opens only the account it was sent for', async () => {
    const linkTo = async (email: string, page: '/invitation' | '/reset-password', send: () => Promise<unknown>) => {
      let after = smtp.received.length;
      await send();
      // The email with the link (a notice of a new password to the same owner may come first).
      let mail = await smtp.next(email, { after });
      while (!mail.text.includes(`${page}/`)) {
        after = smtp.received.indexOf(mail) + 1;
        mail = await smtp.next(email, { after });
      }
      return linkIn(mail, page).split('/').pop()!;
    };
    const patch = (id: number, body: Record<string, unknown>) =>
      server.request('PATCH', `/api/users/${id}`, { token: t.horizonAdmin, body, headers: mergePatch });

    // An invitation sent to a mistyped address: once the administrator corrects it, the first link opens nothing.
    let created: { body: { id: number } } = { body: { id: 0 } };
    const mistyped = await linkTo('corinne@audition-horizn.fr', '/invitation', async () => {
      created = await createUser('corinne@audition-horizn.fr', { sendInvitation: true, firstName: 'Corinne' });
    });
    expect((await patch(created.body.id, { email: 'corinne@audition-horizon.fr' })).status).toBe(200);
    expect((await server.get(`/api/invitations/${mistyped}`)).status).toBe(404);
    expect((await server.request('POST', `/api/invitations/${mistyped}`, { body: { password: STRONG } })).status).toBe(404);

    // Invited again at the right address; the administrator then types a password: the invitation ends.
    const invitation = await linkTo('corinne@audition-horizon.fr', '/invitation', () =>
      server.request('POST', `/api/users/${created.body.id}/invitation`, { token: t.horizonAdmin }),
    );
    const typed = await patch(created.body.id, { password: STRONG });
    expect(typed.status).toBe(200);
    // The list no longer offers 'Renvoyer l'invitation' (which would answer that the password is chosen).
    expect(typed.body.invitationSentAt).toBeNull();
    expect((await server.get(`/api/users/${created.body.id}`, t.horizonAdmin)).body.invitationSentAt).toBeNull();
    expect((await server.request('POST', `/api/invitations/${invitation}`, { body: { password: 'Autre-Cheval-2026' } })).status).toBe(404);

    // A reset link asked before the user changed the password in Mon profil opens nothing after.
    const forgot = () => server.request('POST', '/api/forgot-password', { body: { email: 'corinne@audition-horizon.fr' } });
    const beforeProfile = await linkTo('corinne@audition-horizon.fr', '/reset-password', forgot);
    const here = await firstSignIn(server, 'corinne@audition-horizon.fr', STRONG, 'Nouveau-Soleil-2026!');
    const changed = await server.request('POST', '/api/user/password', {
      token: here.token,
      body: { currentPassword: 'Nouveau-Soleil-2026!', password: 'Autre-Cheval-2026' },
    });
    expect(changed.status, changed.text).toBe(204);
    expect((await server.get(`/api/forgot-password/${beforeProfile}`)).status).toBe(404);

    // Nor one asked before the administrator changed the address.
    const beforeAddress = await linkTo('corinne@audition-horizon.fr', '/reset-password', forgot);
    expect((await patch(created.body.id, { email: 'corinne.b@audition-horizon.fr' })).status).toBe(200);
    expect((await server.request('POST', `/api/forgot-password/${beforeAddress}`, { body: { password: 'Encore-Cheval-2026' } })).status).toBe(404);
    await session('corinne.b@audition-horizon.fr', 'Autre-Cheval-2026');
  });

  it('refuses a password together with an invitation, and a new user with neither', async () => {
    expectViolation(
      await createUser('les-deux@audition-horizon.fr', { sendInvitation: true, password: STRONG }),
      'password',
      'Avec une invitation, l’utilisateur choisit lui-même son mot de passe : laissez ce champ vide',
    );
    expectViolation(await createUser('aucun@audition-horizon.fr'), 'password', 'Le mot de passe est requis lors de la création d’un utilisateur');
  });
});
