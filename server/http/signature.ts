// The robot signs each callback: HMAC-SHA256 of the raw request body with ROBOT_CALLBACK_SECRET, hex encoded, in the
// X-Robot-Signature header (a "sha256=" prefix is accepted). Pecflow signs the jobs it sends to an external robot the
// same way, in X-Pecflow-Signature.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const ROBOT_SIGNATURE_HEADER = 'x-robot-signature';
export const PECFLOW_SIGNATURE_HEADER = 'x-pecflow-signature';

export function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function verifySignature(body: string, secret: string, header: string | undefined): boolean {
  if (!header) return false;
  const given = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(sign(body, secret), 'hex'), Buffer.from(given.toLowerCase(), 'hex'));
}
