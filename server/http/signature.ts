// The robot signs each callback: HMAC-SHA256 of the raw request body with ROBOT_CALLBACK_SECRET, hex encoded, in the
// X-Robot-Signature header (a "sha256=" prefix is accepted). Pecflow signs the jobs it sends to an external robot the
// same way, in X-Pecflow-Signature. The links to documents a robot job carries are signed with the same secret over
// the document, its file and the link's expiry (documentLinkSignature).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const ROBOT_SIGNATURE_HEADER = 'x-robot-signature';
export const PECFLOW_SIGNATURE_HEADER = 'x-pecflow-signature';

export function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/** Whether `given` (hex, "sha256=" prefix accepted) is the signature `expected` (hex), compared in constant time. */
function sameSignature(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const hex = given.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(hex.toLowerCase(), 'hex'));
}

export function verifySignature(body: string, secret: string, header: string | undefined): boolean {
  return sameSignature(sign(body, secret), header);
}

/** The signature of a link to one document of one file until `expires` (Unix seconds). */
export function documentLinkSignature(documentId: number, dossierId: number, expires: number, secret: string): string {
  return sign(`pec_document\n${documentId}\n${dossierId}\n${expires}`, secret);
}

export function verifyDocumentLink(documentId: number, dossierId: number, expires: number, secret: string, given: string | undefined): boolean {
  return sameSignature(documentLinkSignature(documentId, dossierId, expires, secret), given);
}
