// Account links sent by email and the sign-in steps after the password: figures and messages shared by the server
// (server/auth/accounts.ts, server/auth/signIn.ts) and the browser (src/account/).
export const RESET_LINK_MINUTES = 30;
/** The longest email address (RFC 5321). */
export const EMAIL_MAX = 254;
export const INVITATION_LINK_DAYS = 7;

/** The front end's pages the emails link to (public routes): `${path}/${token}`. */
export const ACCOUNT_PAGES = { reset: '/reset-password', invitation: '/invitation' } as const;

/** After the password, what a sign-in may still ask, in this order, before any token is issued. */
export const SIGN_IN_STEPS = ['two_factor', 'password_change', 'two_factor_enrolment'] as const;
export type SignInStep = (typeof SIGN_IN_STEPS)[number];

/** A second factor's code: 6 digits (TOTP, RFC 6238); anything else is read as a recovery code. */
export const TOTP_CODE = /^\d{6}$/;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong second-factor codes in a row after which the account's owner is told by email (and again at each multiple). */
export const SECOND_FACTOR_ALERT_FAILURES = 3;

export const ACCOUNT_MESSAGES = {
  forgotSent:
    'Si un compte correspond à cette adresse, un email vient de lui être envoyé avec un lien valable 30 minutes pour choisir un nouveau mot de passe.',
  linkInvalid: 'Ce lien n’est plus valide : il a déjà servi ou il a expiré.',
  passwordSet: 'Votre mot de passe est enregistré. Connectez-vous avec lui.',
  passwordChanged: 'Mot de passe modifié. Vos autres sessions ont été fermées.',
  currentPasswordWrong: 'Mot de passe actuel incorrect',
  samePassword: 'Choisissez un mot de passe différent de l’actuel',
  invitationAlreadyAccepted: 'Cet utilisateur a déjà choisi son mot de passe : il n’y a plus d’invitation à envoyer.',
  invitationSent: 'Invitation envoyée',
  challengeInvalid: 'Connexion expirée : saisissez à nouveau votre email et votre mot de passe.',
  codeRequired: 'Le code est requis',
  codeInvalid: 'Code invalide.',
  passwordChangeRequired: 'Votre mot de passe ne respecte plus les règles de sécurité : choisissez-en un nouveau pour continuer.',
  passwordChosenByAdministrator: 'Votre mot de passe a été choisi par un administrateur : choisissez le vôtre pour continuer.',
  enrolmentRequired: 'La double authentification est obligatoire pour votre compte : configurez-la pour continuer.',
  twoFactorRequired: 'La double authentification est obligatoire pour votre compte : elle ne peut pas être désactivée.',
  twoFactorAlreadyEnabled: 'La double authentification est déjà activée.',
  twoFactorNotEnabled: 'La double authentification n’est pas activée pour ce compte.',
  twoFactorNotStarted: 'Commencez par afficher le QR code à scanner.',
} as const;
