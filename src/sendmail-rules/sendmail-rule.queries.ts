import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../common/listing/ordering';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { SendmailRule } from './sendmail-rule.entity';

/** Boolean filters of the list (compat §3.26) and their columns. */
const BOOL_FILTERS: Record<string, string> = {
  all_products: 'r.all_products',
  date_is_absolute: 'r.date_is_absolute',
  offset_to_event_end: 'r.offset_to_event_end',
  offset_is_after: 'r.offset_is_after',
  enabled: 'r.enabled',
};

/**
 * The statements of scheduled e-mail rules (compat §3.26): `sendmail_rule` lists and the delivery claims of
 * `sendmail_rule_delivery` (one row per rule and target: a mail is sent at most once). Stateless.
 */
@Injectable()
export class SendmailRuleQueries {
  /**
   * One page of the event's rules; filters `id`, `send_to` and the booleans; ordering `id`. Rows and count in
   * one statement, no lock. @throws ValidationFailed for a malformed filter value
   */
  rulesPage<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: SendmailRule[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(SendmailRule)
      .createQueryBuilder('r')
      .where('r.event_id = :event', { event: eventId });
    const id = filters.int('id');
    if (id !== undefined) qb.andWhere('r.id = :id', { id });
    const sendTo = filters.str('send_to');
    if (sendTo !== undefined) qb.andWhere('r.send_to = :sendTo', { sendTo });
    for (const [name, column] of Object.entries(BOOL_FILTERS)) {
      const value = filters.bool(name);
      if (value !== undefined) qb.andWhere(`${column} = :${name}`, { [name]: value });
    }
    applyOrdering(qb, filters, { id: 'r.id' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /**
   * Claims the deliveries of the rule to `targets` (`order:<id>` or `position:<id>`), in `em`'s transaction.
   * @returns the targets claimed here (the others were claimed before, by this or another run)
   */
  claimDeliveries(
    em: EntityManager,
    ruleId: number,
    targets: readonly string[],
  ): Promise<{ target: string }[]> {
    return em.query(
      `INSERT INTO sendmail_rule_delivery (rule_id, target) SELECT $1, unnest($2::text[])
       ON CONFLICT (rule_id, target) DO NOTHING RETURNING target`,
      [ruleId, targets],
    );
  }
}
