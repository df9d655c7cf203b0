import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginate } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { returning } from '../tasks/sql';
import { OutgoingMail } from './outgoing-mail.entity';

/** The typed filters of the outbox list: `status`, `to` (recipient, case-insensitive), `created_since`. */
export interface OutgoingMailFilter {
  status?: string;
  to?: string;
  createdSince?: Date;
}

/**
 * The outbox's statements (`outgoing_mail`; architecture.md "Layout"): the organizer's list, the sweep of due
 * mails and the delivery's claim and outcome. A delivery owns a mail while its row is `sending`. Stateless.
 */
@Injectable()
export class OutgoingMailQueries {
  /**
   * One page of the organizer's mails, newest first (rows and count), presented by `present` (which may read
   * more). No lock.
   */
  mailsPage<T>(
    em: EntityManager,
    organizerId: number,
    where: OutgoingMailFilter,
    page: PageRequest,
    present: (rows: OutgoingMail[]) => Promise<T[]>,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(OutgoingMail)
      .createQueryBuilder('m')
      .where('m.organizer_id = :org', { org: organizerId })
      .orderBy('m.created', 'DESC')
      .addOrderBy('m.id', 'DESC');
    const { status, to, createdSince: since } = where;
    if (status !== undefined) qb.andWhere('m.status = :status', { status });
    if (to !== undefined) qb.andWhere('lower(m.recipient) = lower(:to)', { to: to.slice(0, 254) });
    if (since !== undefined) qb.andWhere('m.created >= :since', { since });
    return paginate(qb, page, present);
  }

  /** Ids of at most `limit` mails due for (re-)delivery (`queued` or `sending` with `next_attempt` passed). */
  dueIds(em: EntityManager, limit: number): Promise<{ id: number }[]> {
    return em.query(
      `SELECT id FROM outgoing_mail
        WHERE status IN ('queued', 'sending') AND next_attempt <= now()
        ORDER BY next_attempt LIMIT $1`,
      [limit],
    );
  }

  /**
   * Claims the mail for delivery: `sending`, one more attempt, held for `holdMs` milliseconds. @returns the mail
   * (recipient, subject, body, attempts, attachments), or none when it is sent, failed or gone
   */
  claim(em: EntityManager, id: number, holdMs: number): Promise<OutgoingMail[]> {
    return returning<OutgoingMail>(
      em,
      `UPDATE outgoing_mail
          SET status = 'sending', attempts = attempts + 1,
              next_attempt = now() + $2 * interval '1 millisecond'
        WHERE id = $1 AND status IN ('queued', 'sending')
        RETURNING id, recipient, subject, body, attempts, attachments`,
      [id, holdMs],
    );
  }

  /** A claimed mail goes back to `queued`, due in `delayMs` milliseconds, with the error of the attempt. */
  async retryLater(em: EntityManager, id: number, error: string, delayMs: number): Promise<void> {
    await em.query(
      `UPDATE outgoing_mail SET status = 'queued', error = $2, next_attempt = now() + $3 * interval '1 millisecond'
          WHERE id = $1 AND status = 'sending'`,
      [id, error, delayMs],
    );
  }

  /** Undoes a claim: `queued` again, due now, the attempt not counted. */
  async release(em: EntityManager, id: number): Promise<void> {
    await em.query(
      `UPDATE outgoing_mail SET status = 'queued', attempts = greatest(attempts - 1, 0), next_attempt = now()
        WHERE id = $1 AND status = 'sending'`,
      [id],
    );
  }

  /** Records the outcome of a claimed mail: `sent` (with `sent_at`) or `failed`, keeping an earlier error. */
  async recordOutcome(
    em: EntityManager,
    id: number,
    status: 'sent' | 'failed',
    error: string | null,
  ): Promise<void> {
    await em.query(
      `UPDATE outgoing_mail SET status = $2::varchar, error = coalesce($3, error), next_attempt = NULL,
              sent_at = CASE WHEN $2::varchar = 'sent' THEN now() ELSE sent_at END
        WHERE id = $1 AND status = 'sending'`,
      [id, status, error],
    );
  }
}
