// Issue 26's follow-ups: the account's owner is told by email (French, text and HTML, through the mail job) of a new
// password (changed, reset, typed by an administrator), of the second factor turned off or reset, and of wrong codes
// in a row; and the codes tried to turn the second factor off count in the sign-in's limit (429 past it).
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, linkIn, type ReceivedMail, type TestSmtp } from './helpers/smtp';
import { startTestServer, type TestServer } from './helpers/server';
import { expectProblem, expectViolation, firstSignIn, holdingIds, loginAll, mergePatch, sqlRows, type Tokens } from './helpers/backoffice';

let server: TestServer;
let smtp: TestSmtp;
let t: Tokens;
let horizon: number;

const OWN = 'Choisi-Par-Moi-2026!';
const codeOf = (secret: string, step = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + step * 30_000 });

beforeAll(async () => {
  smtp = await startSmtp();
  server = await startTestServer({ smtpUrl: smtp.url });
  t = await loginAll(server, ['horizonAdmin']);
  horizon = (await holdingIds(server)).horizon;
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

/** A new account of Audition Horizon whose owner has chosen their password (OWN); its id and a session. */
async function account(email: string) {
  const created = await server.request('POST', '/api/users', {
    token: t.horizonAdmin,
    body: { firstName: 'Noémie', lastName: 'Notice', email, password: 'Tape-Par-Admin-2026!', holding: `/api/holdings/${horizon}`, status: 'Active' },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id as number, session: await firstSignIn(server, email, 'Tape-Par-Admin-2026!', OWN) };
}

/** The next email to `to` whose subject contains `subject`, received after index `after` of the SMTP server's list. */
async function mailTo(to: string, subject: string, after: number): Promise<ReceivedMail> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const mail = smtp.received.slice(after).find((m) => m.to === to && m.subject.includes(subject));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`aucun email « ${subject} » pour ${to}`);
}

function expectNotice(mail: ReceivedMail, sentence: string) {
  expect(mail.subject).toMatch(/^Pecflow \(Audition Horizon\) : /);
  expect(mail.text).toContain('Bonjour Noémie,');
  expect(mail.text).toContain(sentence);
  expect(mail.text).toMatch(/le \d{1,2} \S+ \d{4} à \d{2}:\d{2} \(heure de Paris\)/);
  expect(mail.html).toContain('<html lang="fr">');
  expect(mail.html).toContain(sentence);
  // What to do if it was not them: a new password, from the forgotten-password page.
  expect(mail.text).toMatch(/Choisir un nouveau mot de passe : https?:\/\/\S+\/forgot-password\n/);
}

async function enrol(token: string) {
  const setup = await server.request('POST', '/api/user/two-factor/setup', { token });
  const secret = setup.body.secret as string;
  expect((await server.request('POST', '/api/user/two-factor', { token, body: { code: codeOf(secret) } })).status).toBe(200);
  return secret;
}

describe('emails to the account owner', () => {
  it('tells of a new password: changed in Mon profil, reset by the link, typed by an administrator', async () => {
    const email = 'notice.mdp@audition-horizon.fr';
    let before = smtp.received.length;
    const { id, session } = await account(email);
    // The first sign-in's change, by the owner.
    expectNotice(await mailTo(email, 'votre mot de passe a été modifié', before), 'Le mot de passe de votre compte Pecflow a été modifié le ');

    before = smtp.received.length;
    const changed = await server.request('POST', '/api/user/password', { token: session.token, body: { currentPassword: OWN, password: 'Autre-Cheval-2026' } });
    expect(changed.status, changed.text).toBe(204);
    const mail = await mailTo(email, 'votre mot de passe a été modifié', before);
    expectNotice(mail, 'Le mot de passe de votre compte Pecflow a été modifié le ');
    expect(mail.text).toContain('Si vous n’êtes pas à l’origine de ce changement');
    expect(mail.text).not.toContain('Autre-Cheval-2026');

    before = smtp.received.length;
    await server.request('POST', '/api/forgot-password', { body: { email } });
    const token = linkIn(await mailTo(email, 'réinitialisation', before), '/reset-password')
      .split('/')
      .pop()!;
    expect((await server.request('POST', `/api/forgot-password/${token}`, { body: { password: 'Troisieme-Cheval-2026' } })).status).toBe(204);
    expectNotice(
      await mailTo(email, 'votre mot de passe a été modifié', before),
      'Le mot de passe de votre compte Pecflow a été réinitialisé par le lien « Mot de passe oublié ? » le ',
    );

    before = smtp.received.length;
    const typed = await server.request('PATCH', `/api/users/${id}`, {
      token: t.horizonAdmin,
      body: { password: 'Quatrieme-Cheval-2026' },
      headers: mergePatch,
    });
    expect(typed.status, typed.text).toBe(200);
    expectNotice(
      await mailTo(email, 'votre mot de passe a été modifié', before),
      'Un administrateur a défini un nouveau mot de passe pour votre compte Pecflow le ',
    );
  });

  it('tells of the second factor turned off by its owner or reset by an administrator', async () => {
    const email = 'notice.2fa@audition-horizon.fr';
    const { id, session } = await account(email);
    const secret = await enrol(session.token);
    let before = smtp.received.length;
    const off = await server.request('DELETE', '/api/user/two-factor', { token: session.token, body: { code: codeOf(secret, 1) } });
    expect(off.status, off.text).toBe(204);
    expectNotice(
      await mailTo(email, 'la double authentification est désactivée', before),
      'La double authentification de votre compte Pecflow a été désactivée le ',
    );

    await enrol(session.token);
    before = smtp.received.length;
    expect((await server.request('DELETE', `/api/users/${id}/two-factor`, { token: t.horizonAdmin })).status).toBe(204);
    expectNotice(
      await mailTo(email, 'la double authentification est désactivée', before),
      'Un administrateur a réinitialisé la double authentification de votre compte Pecflow : elle est désactivée le ',
    );
  });

  it('tells of three wrong second-factor codes in a row; a right code starts the count again', async () => {
    const email = 'notice.codes@audition-horizon.fr';
    const { session } = await account(email);
    const secret = await enrol(session.token);
    const signIn = () => server.request('POST', '/api/login_check', { body: { email, password: OWN } });
    const code = (challenge: string, value: string) => server.request('POST', '/api/login_check/two-factor', { body: { challenge, code: value } });
    const subject = 'codes de double authentification erronés';

    // Two wrong, one right: no email; the count starts again.
    let before = smtp.received.length;
    let open = await signIn();
    for (const wrong of ['000000', '000001']) expectProblem(await code(open.body.challenge, wrong), 401, 'Code invalide.');
    expect((await code(open.body.challenge, codeOf(secret, 1))).status).toBe(200);
    open = await signIn();
    expectProblem(await code(open.body.challenge, '000002'), 401, 'Code invalide.');
    expectProblem(await code(open.body.challenge, '000003'), 401, 'Code invalide.');
    // The third in a row (here a wrong code to turn it off, counted alike): the email.
    expectViolation(await server.request('DELETE', '/api/user/two-factor', { token: session.token, body: { code: '000004' } }), 'code', 'Code invalide.');
    const mail = await mailTo(email, subject, before);
    expectNotice(mail, '3 codes de double authentification erronés ont été saisis à la suite pour votre compte Pecflow le ');
    expect(mail.text).toContain('quelqu’un connaît votre mot de passe');
    expect(smtp.received.slice(before).filter((m) => m.to === email && m.subject.includes(subject))).toHaveLength(1);
    await sqlRows(server, 'delete from login_attempts where email = $1', [email]);
    before = smtp.received.length;
    // The mail job has run: no second email for these three.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.slice(before).filter((m) => m.to === email && m.subject.includes(subject))).toHaveLength(0);
  });
});

describe('turning the second factor off with a code', () => {
  it('counts wrong codes in the sign-in limit: 429 past it, even with the right code, and the sign-in is blocked too', async () => {
    const email = 'notice.limite@audition-horizon.fr';
    const { session } = await account(email);
    const secret = await enrol(session.token);
    await sqlRows(server, 'delete from login_attempts where email = $1', [email]);
    const off = (code: string) => server.request('DELETE', '/api/user/two-factor', { token: session.token, body: { code } });
    // Two wrong codes at sign-in and three here make the five of security.login_max_attempts.
    const open = await server.request('POST', '/api/login_check', { body: { email, password: OWN } });
    for (const wrong of ['000000', '000001'])
      expectProblem(
        await server.request('POST', '/api/login_check/two-factor', { body: { challenge: open.body.challenge, code: wrong } }),
        401,
        'Code invalide.',
      );
    for (const wrong of ['000002', '000003', '000004']) expectViolation(await off(wrong), 'code', 'Code invalide.');
    const blocked = await off(codeOf(secret, 1));
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toMatch(/^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/);
    expect((await server.get('/api/user/two-factor', session.token)).body.enabled).toBe(true);
    expect((await server.request('POST', '/api/login_check', { body: { email, password: OWN } })).status).toBe(429);
    // Once the window has passed, the right code turns it off.
    await sqlRows(server, 'delete from login_attempts where email = $1', [email]);
    expect((await off(codeOf(secret, 1))).status).toBe(204);
  });
});
