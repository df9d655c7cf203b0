import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { MailOutboxService } from './mail-outbox.service';
import { Periodic } from '../common/contributions';
import { OutgoingMailQueries } from './outgoing-mail.queries';

/** Mails examined per sweep. */
const BATCH = 500;

/**
 * The scheduler's sweep of the outbox: mails that are due (`queued` with `next_attempt` passed: the enqueue after
 * the commit failed, or Redis lost the job) or whose worker's hold ran out (`sending`: the worker died) are
 * enqueued again. Safe with several workers and repeated sweeps: a mail has at most one live job (job id
 * `mail-<id>`), and the delivery claims the row before sending.
 */
@Injectable()
export class MailSweep {
  private readonly logger = new Logger('Mail');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: MailOutboxService,
    private readonly config: AppConfig,
    /** Injected; the default serves callers outside Nest's container (it is stateless). */
    private readonly queries: OutgoingMailQueries = new OutgoingMailQueries(),
  ) {}

  /** @returns how many mails were (re-)enqueued (none without `MAIL_URL`: the mails stay in the outbox) */
  @Periodic('mail.sweep')
  async sweep(): Promise<number> {
    if (this.config.mailUrl === '') return 0;
    const due = await this.queries.dueIds(this.db.manager, BATCH);
    if (due.length === 0) return 0;
    const n = await this.outbox.dispatch(due.map((r) => r.id));
    this.logger.debug(`sweep: ${n} of ${due.length} due mails enqueued`);
    return n;
  }
}
