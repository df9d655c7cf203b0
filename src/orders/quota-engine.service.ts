import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  availabilityOf,
  AvailabilityOptions,
  CountedQuota,
  QuotaAvailability,
  QuotaAvailabilityResult,
} from '../catalogue/quotas/quota-availability';
import { VoucherBlocking } from '../catalogue/vouchers/voucher-blocking.service';
import { ProductSales, sumQuotaCounts } from './quota-engine.rules';

/**
 * The quota engine: how full each quota is (spec "Quota"; compat §3.14), in two SQL statements for any number of
 * quotas:
 * 1. the maintained counts of paid and pending order positions (not canceled) and of the paid ones whose last
 *    successful scan was an exit (they free their place on quotas with `release_after_exit`), per product of the
 *    quotas asked about (table `product_sales`, kept by triggers: the cost does not grow with the positions of the
 *    event), and live cart positions (`expires` not passed; few, through the index on product and expiry) per
 *    product and voucher;
 * 2. the places blocking vouchers hold per quota, and which vouchers of those cart positions block quota (their
 *    positions do not count: the voucher already holds the place), from the vouchers ({@link VoucherBlocking}).
 * The products of each quota come with it ({@link CountedQuota}): the engine reads only the orders' tables.
 */
@Injectable()
export class QuotaEngine implements QuotaAvailability {
  constructor(private readonly blocking: VoucherBlocking) {}

  async compute(
    em: EntityManager,
    quotas: readonly CountedQuota[],
    options: AvailabilityOptions = {},
  ): Promise<Map<number, QuotaAvailabilityResult>> {
    const result = new Map<number, QuotaAvailabilityResult>();
    if (quotas.length === 0) return result;
    const eventIds = [...new Set(quotas.map((q) => q.eventId))];
    const now = options.now ?? new Date();
    const sales = await this.sales(em, quotas, eventIds, now, options.excludeCartIds ?? []);
    const held = await this.blocking.places(
      em,
      quotas.map((q) => q.id),
      eventIds,
      {
        now,
        excludeVoucherId: options.excludeVoucherId ?? null,
        among: [...new Set(sales.map((s) => s.voucher_id).filter((id): id is number => id !== null))],
      },
    );
    const counts = sumQuotaCounts(quotas, sales, held.placesByQuota, held.blocking);
    for (const quota of quotas) result.set(quota.id, availabilityOf(quota, counts.get(quota.id)!));
    return result;
  }

  /** Maintained paid, pending and exited counts and live cart positions per product of the quotas; one statement. */
  private async sales(
    em: EntityManager,
    quotas: readonly CountedQuota[],
    eventIds: number[],
    now: Date,
    excludeCartIds: readonly string[],
  ): Promise<ProductSales[]> {
    const items = [...new Set(quotas.flatMap((q) => q.itemIds))];
    const variations = [...new Set(quotas.flatMap((q) => q.variationIds))];
    return em.query(
      `SELECT ps.item_id, ps.variation_id, ps.subevent_id, NULL::int AS voucher_id,
              ps.paid, ps.pending, ps.exited, 0 AS carts
         FROM product_sales ps
        WHERE ps.event_id = ANY($1)
          AND (ps.variation_id = ANY($3) OR (ps.variation_id IS NULL AND ps.item_id = ANY($2)))
       UNION ALL
       SELECT cp.item_id, cp.variation_id, cp.subevent_id, cp.voucher_id, 0, 0, 0, COUNT(*)::int
         FROM cart_position cp
        WHERE cp.event_id = ANY($1) AND cp.expires >= $4 AND NOT (cp.cart_id = ANY($5::text[]))
          AND (cp.variation_id = ANY($3) OR (cp.variation_id IS NULL AND cp.item_id = ANY($2)))
        GROUP BY cp.item_id, cp.variation_id, cp.subevent_id, cp.voucher_id`,
      [eventIds, items, variations, now, [...excludeCartIds]],
    );
  }
}
