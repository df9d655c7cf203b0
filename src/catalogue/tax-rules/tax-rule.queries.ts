import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { TaxRule } from './tax-rule.entity';

/** Whether items use a tax rule, and whether its event has other rules. */
export interface TaxRuleUseRow {
  items: boolean;
  others: boolean;
}

/**
 * The SQL of the catalogue's `tax_rule` table (compat §3.19): the list page, the per-event write lock, the
 * default flag, the delete check. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class TaxRuleQueries {
  /**
   * One page of the event's tax rules (rows and count in one statement), presented by `present`; ordering `id`.
   * @throws NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: TaxRule[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(TaxRule)
      .createQueryBuilder('t')
      .where('t.event_id = :event', { event: eventId });
    applyOrdering(qb, filters, { id: 't.id' }, ['id']);
    return paginateRows(qb, page, present);
  }

  /** The number of the event's tax rules; one statement. */
  async countOfEvent(em: EntityManager, eventId: number): Promise<number> {
    const rows: { n: number }[] = await em.query('SELECT count(*)::int AS n FROM tax_rule WHERE event_id = $1', [
      eventId,
    ]);
    return rows[0].n;
  }

  /** Whether items use rule `ruleId`, and whether the event has rules other than it; one statement. */
  async use(em: EntityManager, eventId: number, ruleId: number): Promise<TaxRuleUseRow> {
    const usage: TaxRuleUseRow[] = await em.query(
      `SELECT EXISTS (SELECT 1 FROM item WHERE tax_rule_id = $2) AS items,
                EXISTS (SELECT 1 FROM tax_rule WHERE event_id = $1 AND id <> $2) AS others`,
      [eventId, ruleId],
    );
    return usage[0];
  }

  /** Takes the transaction-scoped advisory lock `taxrule:<event>` (serializes writes to the event's rules). */
  async lockEventRules(em: EntityManager, eventId: number): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`taxrule:${eventId}`]);
  }

  /** Clears `is_default` on the event's rules other than `keepId`; one statement. */
  async clearOtherDefaults(em: EntityManager, eventId: number, keepId: number): Promise<void> {
    await em.query('UPDATE tax_rule SET is_default = false WHERE event_id = $1 AND id <> $2 AND is_default', [
      eventId,
      keepId,
    ]);
  }
}
