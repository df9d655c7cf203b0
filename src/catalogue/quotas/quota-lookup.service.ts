import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RowMapper } from '../../common/persistence/row-mapper';
import type { QuotaProducts } from './quota-availability';
import { Quota } from './quota.entity';
import type { QuotaRefs } from './quota.presenter';
import { QuotaQueries } from './quota.queries';

/** A product something draws quota for (compat §3.14): an item, its variation (null when none), a sub-event. */
export interface Product {
  itemId: number;
  variationId: number | null;
  subeventId: number | null;
}

/** Key of a product in the maps this lookup returns: `item/variation/subevent` (empty for null). */
export const productKey = (p: Product): string => `${p.itemId}/${p.variationId ?? ''}/${p.subeventId ?? ''}`;

/** A quota row with the products it counts (what reservations lock and the engine counts). */
export type ProductQuota = Quota & QuotaProducts;

/** A {@link ProductQuota} with the item of each of its variations (`variationItemIds[i]` of `variationIds[i]`). */
export type EventQuota = ProductQuota & { variationItemIds: number[] };

/**
 * The one home of "which quotas does a product draw on" and "which products does a quota count" (compat §3.14,
 * pretix's position lookup): a product without variation draws on the quotas listing its item, a variation on
 * the quotas listing that variation, for its sub-event. Every method is one SQL statement whatever the number of
 * products or quotas, and runs on the caller's `em` (inside its transaction when it has one).
 */
@Injectable()
export class QuotaLookup {
  constructor(private readonly queries: QuotaQueries) {}

  /**
   * The quotas of the event each product draws on, ids ascending.
   * @returns quota ids per {@link productKey}; a product without quota maps to `[]`
   */
  async forProducts(
    em: EntityManager,
    eventId: number,
    products: readonly Product[],
  ): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>(products.map((p) => [productKey(p), []]));
    const itemIds = distinct(products.filter((p) => p.variationId === null).map((p) => p.itemId));
    const variationIds = distinct(products.map((p) => p.variationId));
    if (itemIds.length === 0 && variationIds.length === 0) return out;
    const rows = await this.queries.productRows(em, eventId, itemIds, variationIds);
    for (const p of products) {
      const ids = rows
        .filter(
          (r) =>
            r.subevent_id === p.subeventId &&
            (p.variationId === null ? r.item_id === p.itemId : r.variation_id === p.variationId),
        )
        .map((r) => r.quota_id);
      out.set(productKey(p), distinct(ids));
    }
    return out;
  }

  /** Item and variation ids of quotas, ascending (the wire form of `items`/`variations`). */
  async refsOf(em: EntityManager, quotaIds: readonly number[]): Promise<Map<number, QuotaRefs>> {
    const out = new Map<number, QuotaRefs>(quotaIds.map((id) => [id, { items: [], variations: [] }]));
    if (quotaIds.length === 0) return out;
    const rows = await this.queries.refRows(em, quotaIds);
    for (const row of rows) {
      const refs = out.get(row.quota_id);
      if (refs) (row.kind === 'i' ? refs.items : refs.variations).push(row.ref);
    }
    return out;
  }

  /**
   * Quota rows by id with their products, in id order. `lock` takes the rows `FOR UPDATE` (a reservation): in id
   * order, so concurrent reservations never deadlock, and only these rows, so different quotas never wait on each
   * other (architecture.md "Concurrency"); it must run inside the writing transaction. Unknown ids are skipped.
   * One prepared statement (it runs on every sale); the rows are entity-shaped objects ({@link RowMapper}).
   */
  async load(em: EntityManager, ids: readonly number[], lock: boolean): Promise<ProductQuota[]> {
    if (ids.length === 0) return [];
    const mapper = RowMapper.of<ProductQuota>(em.connection.getMetadata(Quota));
    const rows = await this.queries.productQuotaRows(em, mapper.selectSql('q'), distinct(ids), lock);
    return rows.map((row) => mapper.fromRow(row));
  }

  /**
   * The event's quota rows with their products, by id (of sub-event `subeventId` only, when given); one prepared
   * statement, no lock (README "Live figures", `E/stats/`).
   */
  async ofEvent(em: EntityManager, eventId: number, subeventId: number | null): Promise<EventQuota[]> {
    const mapper = RowMapper.of<EventQuota>(em.connection.getMetadata(Quota));
    const rows = await this.queries.eventProductQuotaRows(em, mapper.selectSql('q'), eventId, subeventId);
    return rows.map((row) => mapper.fromRow(row));
  }
}

function distinct(values: readonly (number | null)[]): number[] {
  return [...new Set(values.filter((v): v is number => v !== null))].sort((a, b) => a - b);
}
