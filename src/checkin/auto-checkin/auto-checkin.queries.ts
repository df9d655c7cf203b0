import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { preparedQuery } from '../../common/persistence/prepared';
import { AutoCheckinRule } from './auto-checkin-rule.entity';
import type { AutoCheckinPair, ListForMatch, RuleForMatch } from './auto-checkin.rules';

/** Product and variation ids of a rule, ascending. */
export interface RuleRefs {
  items: number[];
  variations: number[];
}

/** A rule with its product and variation ids, as the list and detail read them. */
export interface RuleWithRefs {
  rule: AutoCheckinRule;
  refs: RuleRefs;
}

/** An automatic check-in just stored. */
export interface InsertedAutoCheckin {
  id: number;
  position_id: number;
  list_id: number;
  datetime: Date;
  /** No successful entry of the position on the list before this one. */
  first: boolean;
}

/** Item and variation ids of rule `r`, as subqueries of the rule's own statement. */
const RULE_REFS = {
  items: relatedValue<number[]>(
    "SELECT coalesce(array_agg(ri.item_id ORDER BY ri.item_id), '{}') FROM auto_checkin_rule_item ri WHERE ri.rule_id = r.id",
  ),
  variations: relatedValue<number[]>(
    "SELECT coalesce(array_agg(rv.variation_id ORDER BY rv.variation_id), '{}') FROM auto_checkin_rule_variation rv WHERE rv.rule_id = r.id",
  ),
};

/**
 * The SQL of the automatic check-in rules (`auto_checkin_rule`, `_item`, `_variation`) and of the check-ins they
 * make (`checkin`). Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class AutoCheckinQueries {
  /**
   * One page of the event's rules with their links, in one statement; ordering `id` (the default).
   * @throws ValidationFailed on a malformed `ordering`; NotFound "Invalid page."
   */
  page(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<RuleWithRefs>> {
    const qb = em
      .getRepository(AutoCheckinRule)
      .createQueryBuilder('r')
      .where('r.event_id = :event', { event: eventId });
    applyOrdering(qb, filters, { id: 'r.id' }, ['id']);
    return paginateInOne(qb, page, RULE_REFS, (rule, refs) => ({ rule, refs }));
  }

  /**
   * One rule of the event with its links, in one statement (no lock).
   * @throws NotFound
   */
  one(em: EntityManager, eventId: number, id: number): Promise<RuleWithRefs> {
    const qb = em
      .getRepository(AutoCheckinRule)
      .createQueryBuilder('r')
      .where('r.id = :id AND r.event_id = :event', { id, event: eventId });
    return findOneInOne(qb, RULE_REFS, (rule, refs) => ({ rule, refs }));
  }

  /** Replaces the rule's product and variation links (two deletes, an insert per non-empty kind). */
  async writeRefs(em: EntityManager, ruleId: number, refs: RuleRefs): Promise<void> {
    await em.query('DELETE FROM auto_checkin_rule_item WHERE rule_id = $1', [ruleId]);
    await em.query('DELETE FROM auto_checkin_rule_variation WHERE rule_id = $1', [ruleId]);
    if (refs.items.length > 0) {
      await em.query('INSERT INTO auto_checkin_rule_item (rule_id, item_id) SELECT $1, unnest($2::int[])', [
        ruleId,
        refs.items,
      ]);
    }
    if (refs.variations.length > 0) {
      await em.query(
        'INSERT INTO auto_checkin_rule_variation (rule_id, variation_id) SELECT $1, unnest($2::int[])',
        [ruleId, refs.variations],
      );
    }
  }

  /** Whether `listId` is a check-in list of the event (one statement). */
  async listOfEvent(em: EntityManager, eventId: number, listId: number): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM checkin_list WHERE id = $1 AND event_id = $2', [
      listId,
      eventId,
    ]);
    return rows.length > 0;
  }

  /**
   * The event's rules of `modes` with their links, by id (one prepared statement, no lock: it runs on every
   * order placement and payment).
   */
  rulesFor(em: EntityManager, eventId: number, modes: readonly string[]): Promise<RuleForMatch[]> {
    return preparedQuery<RuleForMatch>(
      em,
      `SELECT r.id, r.list_id AS "listId", r.mode, r.all_sales_channels AS "allSalesChannels",
              r.limit_sales_channels AS "limitSalesChannels", r.all_products AS "allProducts",
              r.all_payment_methods AS "allPaymentMethods", r.limit_payment_methods AS "limitPaymentMethods",
              ${RULE_REFS.items.sql} AS "itemIds", ${RULE_REFS.variations.sql} AS "variationIds"
         FROM auto_checkin_rule r WHERE r.event_id = $1 AND r.mode = ANY($2) ORDER BY r.id`,
      [eventId, [...modes]],
    );
  }

  /**
   * The check-in lists the rules name (`listIds`) and, with `anyList`, every list of the event of no date or of
   * one of `subeventIds`, with their products; one statement, by id.
   */
  lists(
    em: EntityManager,
    eventId: number,
    listIds: readonly number[],
    anyList: boolean,
    subeventIds: readonly number[],
  ): Promise<(ListForMatch & { named: boolean; ofEvent: boolean })[]> {
    return em.query(
      `SELECT l.id, l.all_products AS "allProducts", l.subevent_id AS "subeventId",
              (SELECT coalesce(array_agg(li.item_id ORDER BY li.item_id), '{}') FROM checkin_list_item li
                WHERE li.list_id = l.id) AS "itemIds",
              (l.id = ANY($2)) AS named,
              ($3 AND (l.subevent_id IS NULL OR l.subevent_id = ANY($4))) AS "ofEvent"
         FROM checkin_list l
        WHERE l.event_id = $1 AND (l.id = ANY($2) OR ($3 AND (l.subevent_id IS NULL OR l.subevent_id = ANY($4))))
        ORDER BY l.id`,
      [eventId, [...listIds], anyList, [...subeventIds]],
    );
  }

  /**
   * Stores the automatic check-ins `pairs` (successful entries at `at`, `auto_checked_in`), skipping a pair that
   * already has an automatic entry on that list (pretix's `get_or_create`, so firing twice checks in once); one
   * statement. The quota counts follow through the `checkin` triggers.
   * @returns the rows stored, with whether each is the position's first entry on the list
   */
  insertAutoCheckins(
    em: EntityManager,
    eventId: number,
    pairs: readonly AutoCheckinPair[],
    at: Date,
  ): Promise<InsertedAutoCheckin[]> {
    return em.query(
      `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, auto_checked_in)
       SELECT x.position_id, $1, x.list_id, 'entry', $4, true, true
         FROM unnest($2::int[], $3::int[]) AS x(position_id, list_id)
        WHERE NOT EXISTS (SELECT 1 FROM checkin c WHERE c.position_id = x.position_id AND c.list_id = x.list_id
                             AND c.auto_checked_in AND c.type = 'entry')
       RETURNING id, position_id, list_id, datetime,
                 NOT EXISTS (SELECT 1 FROM checkin c WHERE c.position_id = checkin.position_id
                               AND c.list_id = checkin.list_id AND c.successful AND c.type = 'entry') AS first`,
      [eventId, pairs.map((p) => p.positionId), pairs.map((p) => p.listId), at],
    );
  }
}
