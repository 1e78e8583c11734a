// The account emails, in French, as plain text and HTML, with the organisation's name.
import type { MailMessage } from './mailer';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Letter {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; link: string };
  closing: string[];
  organisation: string;
}

function compose({ to, subject, greeting, paragraphs, action, closing, organisation }: Letter): MailMessage {
  const signature = `L’équipe Pecflow — ${organisation}`;
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    `${action.label} : ${action.link}`,
    '',
    ...closing.flatMap((p) => [p, '']),
    signature,
  ].join('\n');
  const html = `<!doctype html>
<html lang="fr"><body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5">
<p>${escape(greeting)}</p>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}
<p><a href="${escape(action.link)}" style="display: inline-block; padding: 10px 18px; background: #1565c0; color: #ffffff; border-radius: 4px; text-decoration: none">${escape(action.label)}</a></p>
<p style="font-size: 13px; color: #4b5563">Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :<br>${escape(action.link)}</p>
${closing.map((p) => `<p style="font-size: 13px; color: #4b5563">${escape(p)}</p>`).join('\n')}
<p>${escape(signature)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export function passwordResetMail(input: { to: string; firstName: string; organisation: string; link: string; minutes: number }): MailMessage {
  return compose({
    to: input.to,
    subject: `Pecflow (${input.organisation}) : réinitialisation de votre mot de passe`,
    greeting: `Bonjour ${input.firstName},`,
    paragraphs: [
      `Une demande de nouveau mot de passe a été faite pour votre compte Pecflow (${input.organisation}).`,
      `Ce lien est valable ${input.minutes} minutes et ne sert qu’une fois. Choisir un nouveau mot de passe ferme vos sessions ouvertes.`,
    ],
    action: { label: 'Choisir un nouveau mot de passe', link: input.link },
    closing: ['Si vous n’êtes pas à l’origine de cette demande, ignorez cet email : votre mot de passe reste inchangé.'],
    organisation: input.organisation,
  });
}

export function invitationMail(input: { to: string; firstName: string; organisation: string; link: string; days: number; inviter: string }): MailMessage {
  return compose({
    to: input.to,
    subject: `Pecflow (${input.organisation}) : votre invitation`,
    greeting: `Bonjour ${input.firstName},`,
    paragraphs: [
      `${input.inviter} vous a créé un compte Pecflow pour ${input.organisation} : les demandes de prise en charge et leur facturation.`,
      `Choisissez votre mot de passe pour l’activer. Ce lien est valable ${input.days} jours et ne sert qu’une fois.`,
    ],
    action: { label: 'Choisir mon mot de passe', link: input.link },
    closing: ['Si vous ne vous attendiez pas à cette invitation, ignorez cet email.'],
    organisation: input.organisation,
  });
}

/** What happened to an account, told to its owner (issue 26's follow-up): a change they may not have made. */
export type AccountNotice =
  | { kind: 'password_changed'; by: 'owner' | 'reset' | 'administrator' }
  | { kind: 'two_factor_disabled'; by: 'owner' | 'administrator' }
  | { kind: 'two_factor_failures'; failures: number };

/** The subject's end and what happened, for each notice. */
function noticeWords(notice: AccountNotice): { subject: string; done: string } {
  switch (notice.kind) {
    case 'password_changed':
      return {
        subject: 'votre mot de passe a été modifié',
        done: {
          owner: 'Le mot de passe de votre compte Pecflow a été modifié',
          reset: 'Le mot de passe de votre compte Pecflow a été réinitialisé par le lien « Mot de passe oublié ? »',
          administrator: 'Un administrateur a défini un nouveau mot de passe pour votre compte Pecflow',
        }[notice.by],
      };
    case 'two_factor_disabled':
      return {
        subject: 'la double authentification est désactivée',
        done:
          notice.by === 'administrator'
            ? 'Un administrateur a réinitialisé la double authentification de votre compte Pecflow : elle est désactivée'
            : 'La double authentification de votre compte Pecflow a été désactivée',
      };
    case 'two_factor_failures':
      return {
        subject: 'codes de double authentification erronés',
        done: `${notice.failures} codes de double authentification erronés ont été saisis à la suite pour votre compte Pecflow`,
      };
  }
}

export function accountNoticeMail(
  input: { to: string; firstName: string; organisation: string; at: Date; forgotLink: string },
  notice: AccountNotice,
): MailMessage {
  const when = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' }).format(input.at);
  const { subject, done } = noticeWords(notice);
  const unknown =
    notice.kind === 'two_factor_failures'
      ? 'Si ce n’est pas vous, quelqu’un connaît votre mot de passe : changez-le sans attendre.'
      : 'Si vous n’êtes pas à l’origine de ce changement, choisissez sans attendre un nouveau mot de passe et prévenez votre administrateur.';
  return compose({
    to: input.to,
    subject: `Pecflow (${input.organisation}) : ${subject}`,
    greeting: `Bonjour ${input.firstName},`,
    paragraphs: [`${done} le ${when} (heure de Paris).`, unknown],
    action: { label: 'Choisir un nouveau mot de passe', link: input.forgotLink },
    closing: ['Si c’était bien vous, ignorez cet email.'],
    organisation: input.organisation,
  });
}
