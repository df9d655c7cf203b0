import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { IdMap } from '../common/persistence/copy-rows.queries';

function json(map: IdMap): string {
  return JSON.stringify(Object.fromEntries(map));
}

/** The SQL of cloning the catalogue that is not a plain row copy: references fixed up after the copy. */
@Injectable()
export class CatalogueCopyQueries {
  /**
   * Points the copied items' `hidden_if_available` at the copied quotas (items are copied before quotas);
   * one statement.
   */
  async pointHiddenIfAvailable(
    em: EntityManager,
    sourceEventId: number,
    targetEventId: number,
    quotas: IdMap,
    items: IdMap,
  ): Promise<void> {
    await em.query(
      `UPDATE item t SET hidden_if_available = ($3::jsonb ->> s.hidden_if_available::text)::int
         FROM item s WHERE s.event_id = $1 AND t.event_id = $2 AND s.hidden_if_available IS NOT NULL
          AND ($4::jsonb ->> s.id::text)::int = t.id`,
      [sourceEventId, targetEventId, json(quotas), json(items)],
    );
  }

  /** Points the new event's categories' `cross_selling_match_products` at the copied items; one statement. */
  async remapCrossSelling(em: EntityManager, eventId: number, items: IdMap): Promise<void> {
    await em.query(
      `UPDATE item_category SET cross_selling_match_products = ARRAY(
          SELECT ($2::jsonb ->> x.v::text)::int FROM unnest(cross_selling_match_products) WITH ORDINALITY AS x(v, n)
           WHERE $2::jsonb ? x.v::text ORDER BY x.n)
        WHERE event_id = $1 AND cardinality(cross_selling_match_products) > 0`,
      [eventId, json(items)],
    );
  }
}
