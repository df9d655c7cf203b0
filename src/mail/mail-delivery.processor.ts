import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createTransport, Transporter } from 'nodemailer';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { GiveUp, JobProcessor, ProcessesQueue, QueuedJob, RetryLater } from '../tasks/job';
import { QUEUES } from '../tasks/queues';
import { StoredFiles } from '../tasks/stored-files.service';
import { MailOutcome, MailOutcomeHooks } from './mail-outcome-hooks';
import { isPermanentSmtpError, mailErrorText, retryDelayMs } from './mail-delivery.rules';
import { OutgoingMailQueries } from './outgoing-mail.queries';

/**
 * Delivers outgoing mails over SMTP (worker only; `MAIL_URL`, nodemailer). One job per mail: the row is claimed
 * (`queued` -> `sending`, attempts + 1, held for twice the job lock), sent, and recorded `sent`; a temporary
 * failure stores the error and the next attempt's time and retries with back-off (`MAIL_RETRY_DELAY_MS`,
 * doubling); a permanent (5xx) answer or the last of `MAIL_MAX_ATTEMPTS` attempts records `failed`.
 */
@Injectable()
@ProcessesQueue(QUEUES.mail)
export class MailDelivery implements JobProcessor, OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private transport: Transporter | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly files: StoredFiles,
    private readonly config: AppConfig,
    private readonly queries: OutgoingMailQueries,
    private readonly hooks: MailOutcomeHooks,
  ) {}

  async process(job: QueuedJob): Promise<{ status: string }> {
    const id = Number(job.data.mailId);
    const [mail] = await this.queries.claim(this.db.manager, id, 2 * this.config.jobLockMs);
    if (!mail) return { status: 'skipped' };
    if (this.config.mailUrl === '') {
      await this.release(id);
      this.logger.log(`mail ${id} to ${mail.recipient} kept in the outbox, not sent (no MAIL_URL)`);
      return { status: 'queued' };
    }
    try {
      const files = await this.files.findLive(mail.attachments.map((a) => a.file_id));
      const missing = mail.attachments.find((a) => !files.some((f) => f.id === a.file_id));
      if (missing) throw new GiveUp(`Attachment ${missing.filename} is no longer available.`);
      await this.smtp().sendMail({
        from: this.config.mailFrom,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.body,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.content_type,
          content: files.find((f) => f.id === a.file_id)!.content,
        })),
      });
    } catch (err) {
      const error = err instanceof GiveUp ? err.message : mailErrorText(err);
      if (
        err instanceof GiveUp ||
        isPermanentSmtpError(err) ||
        mail.attempts >= this.config.mailMaxAttempts
      ) {
        await this.record(id, 'failed', error);
        await this.fireOutcome({ mailId: id, status: 'failed', recipient: mail.recipient, error });
        this.logger.warn(
          `mail ${id} to ${mail.recipient} failed after ${mail.attempts} attempt(s): ${error}`,
        );
        throw new GiveUp(error);
      }
      const delay = retryDelayMs(mail.attempts, this.config.mailRetryDelayMs);
      await this.queries.retryLater(this.db.manager, id, error, delay);
      throw new RetryLater(delay, error);
    }
    await this.record(id, 'sent', null);
    await this.fireOutcome({ mailId: id, status: 'sent', recipient: mail.recipient, error: null });
    this.logger.log(`mail ${id} sent to ${mail.recipient}`);
    return { status: 'sent' };
  }

  /** A shutting-down worker gave the job back before it finished: the mail waits for the next worker. */
  async onReturned(job: QueuedJob): Promise<void> {
    await this.release(Number(job.data.mailId));
  }

  /** Undoes a claim: the mail is `queued` again, due now, the attempt not counted. */
  private async release(id: number): Promise<void> {
    await this.queries.release(this.db.manager, id);
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }

  private smtp(): Transporter {
    this.transport ??= createTransport({
      url: this.config.mailUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as Parameters<typeof createTransport>[0]);
    return this.transport;
  }

  /** Tells the contexts that wait for this mail (e.g. an invoice's transmission), each in a transaction. */
  private fireOutcome(outcome: MailOutcome): Promise<void> {
    return this.hooks.fire((work) => this.db.transaction(work), outcome);
  }

  private async record(id: number, status: 'sent' | 'failed', error: string | null): Promise<void> {
    await this.queries.recordOutcome(this.db.manager, id, status, error);
  }
}
