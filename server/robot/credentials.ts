// The robot's logins for a centre (shop credential mapping), decrypted: what a job hands the external robot, and the
// secrets that must never come back into what people read (its error replies, its callbacks' messages).
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/connect';
import { credentialSoftware, shopCredentials, software } from '../db/schema';

export async function centreCredentials(app: AppContext, shopId: number, db: DbOrTx = app.db) {
  const rows = await db
    .select({ credential: credentialSoftware, software })
    .from(shopCredentials)
    .innerJoin(credentialSoftware, eq(credentialSoftware.id, shopCredentials.credentialId))
    .innerJoin(software, eq(software.id, credentialSoftware.softwareId))
    .where(
      and(
        eq(shopCredentials.shopId, shopId),
        eq(credentialSoftware.status, 'Active'),
        isNull(credentialSoftware.deletedAt),
        eq(software.status, 'Active'),
        isNull(software.deletedAt),
      ),
    );
  const reveal = (value: string | null) => {
    if (!value) return null;
    try {
      return app.secrets.decrypt(value);
    } catch {
      return null;
    }
  };
  return rows.map(({ credential, software: s }) => ({
    credential,
    software: s,
    password: reveal(credential.passwordEnc),
    apiKey: reveal(credential.apiKeyEnc),
    apiSecret: reveal(credential.apiSecretEnc),
  }));
}

/** The decrypted secrets among them (passwords, API keys and secrets). */
export const secretsOf = (credentials: { password: string | null; apiKey: string | null; apiSecret: string | null }[]): string[] =>
  credentials.flatMap((c) => [c.password, c.apiKey, c.apiSecret]).filter((v): v is string => typeof v === 'string' && v.length > 0);

/** Texts that hold none of the secrets: any that does is dropped whole. */
export const withoutSecrets = (texts: readonly string[], secrets: readonly string[]) =>
  texts.filter((text) => !secrets.some((secret) => text.includes(secret)));
