// Answers compressed for the clients that accept it (every browser). @fastify/compress (app.ts) compresses each answer
// as it is sent; a kept list (hydra/listCache.ts) is compressed here once, and that copy is sent while the list is
// kept: the platform's 5,000 credentials are 3 MB of JSON, which brotli took ~25 ms to compress at every read.
// Hand-written: @fastify/compress keeps nothing, and only the list cache knows how long the bytes stay the same.
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** What the API answers in, by preference. */
export const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];
/** Smaller answers are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD = 1024;
/** Compressed copies kept per list page: its answer differs by address (the page links) and encoding. */
const MAX_COPIES = 4;

const compressors: Record<string, (text: string) => Promise<Buffer>> = {
  // Brotli's quality as @fastify/compress's default: higher qualities cost several times the CPU for a few percent.
  br: (text) =>
    promisify(brotliCompress)(text, {
      params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 },
    }),
  gzip: (text) => promisify(gzip)(text),
};

/** The encoding to answer in, as @fastify/compress chooses it (`*` is gzip; `x-no-compression` asks for none). */
function encodingOf(request: FastifyRequest): string | null {
  const accepted = request.headers['accept-encoding'];
  if (request.headers['x-no-compression'] !== undefined || !accepted) return null;
  return negotiate(accepted.toLowerCase().replace(/\*/g, 'gzip'), ENCODINGS);
}

/**
 * `before + members + after`, compressed from `copies` (the kept page's copies, by encoding and surrounding text) when
 * the client accepts an encoding; otherwise as text. The caller sets the status and content type.
 */
export async function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  [before, members, after]: [string, string, string],
  copies: Map<string, Promise<Buffer>> | undefined,
) {
  const body = before + members + after;
  const encoding = copies && body.length >= COMPRESSION_THRESHOLD ? encodingOf(request) : null;
  if (!copies || !encoding) return reply.send(body);
  const key = `${encoding}\u0000${before}\u0000${after}`;
  let copy = copies.get(key);
  if (!copy) {
    if (copies.size >= MAX_COPIES) copies.clear();
    copy = compressors[encoding]!(body);
    copies.set(key, copy);
  }
  const bytes = await copy.catch(() => {
    copies.delete(key);
    return null;
  });
  if (!bytes) return reply.send(body);
  const vary = reply.getHeader('vary');
  if (!/accept-encoding/i.test(String(vary ?? ''))) reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  // As a stream: a Buffer from another realm (the server inside a jsdom test) is not recognised as one by Fastify.
  return reply
    .header('content-encoding', encoding)
    .header('content-length', bytes.length)
    .send(Readable.from([bytes]));
}
