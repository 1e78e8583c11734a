// Secrets at rest (robot credentials, and documents' content chunk by chunk): AES-256-GCM with the key APP_SECRET_KEY. Stored as "v1:" + base64(iv|tag|data).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1:';

export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('APP_SECRET_KEY doit faire 32 octets (64 caractères hexadécimaux)');
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
  }

  /** Throws when the value was not encrypted with this key or was altered. */
  decrypt(stored: string): string {
    if (!stored.startsWith(VERSION)) throw new Error('Format de secret inconnu');
    const raw = Buffer.from(stored.slice(VERSION.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  /** Bytes (a document's chunk): nonce (12) | tag (16) | data, a fresh nonce each time. */
  encryptBytes(plain: Buffer): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  }

  /** Throws when the bytes were not encrypted with this key or were altered. */
  decryptBytes(sealed: Buffer): Buffer {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  }
}
