// The one mailer (nodemailer): the SMTP server of SMTP_URL in production; without it, each email is written to
// DATA_DIR/outbox/*.eml and a log line names the file, so that `npm start` needs no mail server and a developer can
// read what would have been sent. Emails are sent by a pg-boss job (queue `mail-send`): queued in the transaction
// that decides them (a token and its email commit together), retried when the server refuses or cannot be reached,
// and kept across restarts. The job carries the message encrypted with APP_SECRET_KEY: it holds a single-use link.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { SecretBox } from '../crypto';
import type { DbOrTx } from '../db/connect';
import { QUEUES, type JobService } from '../jobs/boss';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The job's data: the message, encrypted. */
export interface MailJob {
  message: string;
}

interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

/** Milliseconds: an SMTP exchange ends (or fails) well before the mail job expires (jobs/boss.ts). */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };

export class Mailer {
  private readonly transport: Transporter;
  readonly outbox?: string;

  constructor(
    private readonly config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
    private readonly secrets: SecretBox,
    private readonly jobs: JobService,
    private readonly log: Logger,
  ) {
    if (config.smtpUrl) {
      this.transport = nodemailer.createTransport({ url: config.smtpUrl, ...SMTP_TIMEOUTS });
    } else {
      this.outbox = path.join(config.dataDir, 'outbox');
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  /** Queues the message in `tx`'s transaction: it leaves once the transaction commits, never if it rolls back. */
  async queue(tx: DbOrTx, message: MailMessage): Promise<void> {
    await this.jobs.sendInTransaction<MailJob>(tx, QUEUES.mailSend, { message: this.secrets.encrypt(JSON.stringify(message)) });
  }

  /** The job: sends the message. Its Message-ID comes from the job, the same at every try. */
  async deliver(job: MailJob, jobId: string): Promise<void> {
    const message = JSON.parse(this.secrets.decrypt(job.message)) as MailMessage;
    const info = await this.transport.sendMail({ from: this.config.mailFrom, messageId: `<${jobId}@pecflow>`, ...message });
    if (!this.outbox) {
      this.log.info({ messageId: info.messageId }, 'email envoyé');
      return;
    }
    mkdirSync(this.outbox, { recursive: true });
    const file = path.join(this.outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${jobId}.eml`);
    writeFileSync(file, (info as { message: Buffer }).message, { mode: 0o600 });
    this.log.info({ file }, 'email écrit dans la boîte d’envoi locale (SMTP_URL absent)');
  }

  close() {
    this.transport.close();
  }
}
