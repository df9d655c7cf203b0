import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The final outcome of one outgoing mail, as the worker recorded it. */
export interface MailOutcome {
  mailId: number;
  status: 'sent' | 'failed';
  recipient: string;
  /** The error of the last attempt (`failed`), else null. */
  error: string | null;
}

/** Runs inside its own transaction, after the outcome is recorded. */
export type MailOutcomeHandler = (em: EntityManager, outcome: MailOutcome) => Promise<void>;

/**
 * What contexts above mail do when a mail they queued is finally sent or failed, without mail importing them
 * (architecture.md "Layout": mail is below them): the invoices context registers at module init (an e-mailed
 * invoice's transmission completes or fails with its mail, pretix `mail_send_task`). The worker's delivery fires
 * the handlers after recording the outcome; a handler's failure is logged, never undoes the outcome (the mail is
 * sent). Without a registered handler nothing happens.
 */
@Injectable()
export class MailOutcomeHooks {
  private readonly logger = new Logger('Mail');
  private readonly handlers: MailOutcomeHandler[] = [];

  onOutcome(handler: MailOutcomeHandler): void {
    this.handlers.push(handler);
  }

  /** Runs every handler, each in a transaction of its own from `run`; errors are logged. */
  async fire(
    run: (work: (em: EntityManager) => Promise<void>) => Promise<void>,
    outcome: MailOutcome,
  ): Promise<void> {
    for (const handler of this.handlers) {
      try {
        await run((em) => handler(em, outcome));
      } catch (err) {
        this.logger.warn(`mail ${outcome.mailId}: outcome handler failed: ${(err as Error).message}`);
      }
    }
  }
}
