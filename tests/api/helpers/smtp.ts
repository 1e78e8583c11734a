// A real SMTP server in the test process (smtp-server): the application's mailer talks SMTP to it, as it would to the
// production relay; each message is parsed (mailparser) and kept, counted only once the server has accepted it.
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** The first message to `to` after the `after`-th one received (0: any), waited for up to `timeoutMs`. */
  next(to: string, options?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  /** Holds the answer to each message's data until release(): the sender waits, the message is not accepted yet. */
  hold(): void;
  release(): void;
  /** Messages whose data arrived and wait for an answer. */
  held(): number;
  /** Clients connected now. */
  connected(): number;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  let holding = false;
  const waiting: (() => void)[] = [];
  // A client gone before its message was answered (killed) did not send it: such a message is never counted.
  const closed = new Set<string>();
  let connected = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connected += 1;
      callback();
    },
    onClose(session) {
      connected -= 1;
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const accept = async () => {
          if (closed.has(session.id)) return;
          const parsed = await simpleParser(Buffer.concat(chunks));
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()).join(','),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId ?? '',
            parsed,
          });
          callback();
        };
        if (holding) waiting.push(() => void accept());
        else void accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async next(to, { after = 0, timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.slice(after).find((m) => m.to === to.toLowerCase());
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`aucun email reçu pour ${to} en ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const accept of waiting.splice(0)) accept();
    },
    held: () => waiting.length,
    connected: () => connected,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link of an email's text to a page of the application. */
export function linkIn(mail: ReceivedMail, page: string): string {
  const match = new RegExp(`https?://\\S+${page}/[\\w-]+`).exec(mail.text);
  if (!match) throw new Error(`pas de lien ${page} dans : ${mail.text}`);
  return match[0];
}
