import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueues } from '../tasks/job-queues.service';
import { QUEUES } from '../tasks/queues';
import { StoredFiles } from '../tasks/stored-files.service';
import { MailAttachmentRef, OutgoingMail } from './outgoing-mail.entity';

/** An attachment: bytes to store with the mail, or a file already stored (an invoice PDF, an export). */
export type MailAttachment =
  | { filename: string; contentType: string; content: Buffer }
  | { fileId: string; filename: string; contentType: string; size: number };

export interface MailMessage {
  organizerId: number | null;
  eventId?: number | null;
  to: string;
  subject: string;
  /** Plain text. */
  body: string;
  attachments?: MailAttachment[];
}

/** Name of the job that delivers one mail (`{mailId}`), queue `mail`. */
export const SEND_MAIL_JOB = 'send';

/** How long attachments given as bytes are kept (they only serve the delivery). */
const ATTACHMENT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Ids of mails written in a transaction, kept on its query runner until the commit. */
const PENDING = 'ticketing:pending-mails';

/** Job id of a mail's delivery: one live job per mail (the queue ignores a second add while one exists). */
export function mailJobId(id: number): string {
  return `mail-${id}`;
}

/**
 * The one way to send an e-mail (architecture.md "Processes"): writes the `outgoing_mail` row inside the caller's
 * transaction, and once that transaction has committed, enqueues the delivery job. So a business change never
 * needs Redis: when the enqueue fails (Redis down), the row stays `queued` and the scheduler's sweep enqueues it
 * later. Without `MAIL_URL` the row stays `queued` in the outbox (logged; no job) until a worker with `MAIL_URL`
 * sweeps it.
 */
@Injectable()
export class MailOutboxService implements EntitySubscriberInterface {
  private readonly logger = new Logger('Mail');

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly queues: JobQueues,
    private readonly files: StoredFiles,
    private readonly config: AppConfig,
  ) {
    db.subscribers.push(this);
  }

  /**
   * Puts one e-mail into the outbox within `em`'s transaction; it is enqueued for delivery after the commit (at
   * once when `em` has no transaction).
   * @returns the outgoing mail's id
   */
  async enqueue(em: EntityManager, message: MailMessage): Promise<number> {
    const attachments: MailAttachmentRef[] = [];
    for (const a of message.attachments ?? []) {
      if ('fileId' in a) {
        attachments.push({
          file_id: a.fileId,
          filename: a.filename,
          content_type: a.contentType,
          size: a.size,
        });
        continue;
      }
      const fileId = await this.files.store(
        {
          kind: 'mail_attachment',
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
          organizerId: message.organizerId,
          expires: new Date(Date.now() + ATTACHMENT_TTL_MS),
        },
        em,
      );
      attachments.push({
        file_id: fileId,
        filename: a.filename,
        content_type: a.contentType,
        size: a.content.length,
      });
    }
    const deliver = this.config.mailUrl !== '';
    const result = await em.insert(OutgoingMail, {
      organizerId: message.organizerId,
      eventId: message.eventId ?? null,
      recipient: message.to,
      subject: message.subject.slice(0, 998),
      body: message.body,
      status: 'queued',
      nextAttempt: new Date(),
      attachments,
    });
    const id = (result.identifiers[0] as { id: number }).id;
    if (!deliver) {
      this.logger.log(
        `mail ${id} to ${message.to} kept in the outbox, not sent (no MAIL_URL): ${message.subject}`,
      );
      return id;
    }
    const runner = em.queryRunner;
    if (runner?.isTransactionActive) ((runner.data[PENDING] as number[] | undefined) ??= []).push(id);
    else await this.dispatch([id]);
    return id;
  }

  /** After the outermost commit: enqueue the mails the transaction wrote. */
  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const runner = event.queryRunner;
    if (runner.isTransactionActive) return;
    const ids = runner.data[PENDING] as number[] | undefined;
    if (!ids) return;
    delete runner.data[PENDING];
    await this.dispatch(ids);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete event.queryRunner.data[PENDING];
  }

  /**
   * Enqueues the delivery of these mails (one job each, de-duplicated by {@link mailJobId}). Stops at the first
   * failure: the rest stay `queued` for the scheduler's sweep. Never throws.
   * @returns how many were enqueued
   */
  async dispatch(ids: readonly number[]): Promise<number> {
    let done = 0;
    for (const id of ids) {
      try {
        await this.queues.enqueue(
          QUEUES.mail,
          SEND_MAIL_JOB,
          { mailId: id },
          { jobId: mailJobId(id), attempts: this.config.mailMaxAttempts },
        );
        done++;
      } catch {
        this.logger.warn(`mail ${id}: queue unavailable, stays queued for the scheduler's sweep`);
        break;
      }
    }
    return done;
  }
}
