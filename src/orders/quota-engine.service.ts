import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  availabilityOf,
  AvailabilityOptions,
  QuotaAvailability,
  QuotaAvailabilityResult,
  QuotaCounts,
} from '../catalogue/quotas/quota-availability';
import type { Quota } from '../catalogue/quotas/quota.entity';

/**
 * The quota engine: how full each quota is (spec "Quota"; compat §3.14). Each source of occupation is one SQL
 * statement for all quotas asked about, so the cost does not grow with the number of quotas:
 * - blocking vouchers: valid (`valid_until` not passed), `block_quota`, not used up; each blocks
 *   `max_usages - redeemed` places in the quotas of its quota, item or variation (and sub-event);
 * - order positions (not canceled) of paid and pending orders, and of those the paid ones whose last successful
 *   scan was an exit (they free their place on quotas with `release_after_exit`), plus live cart positions
 *   (`expires` not passed) except those holding a blocking voucher, which already counts: one statement.
 * A position counts on the quotas listing its variation, or its item when it has no variation, for its
 * sub-event.
 */
@Injectable()
export class QuotaEngine implements QuotaAvailability {
  async compute(
    em: EntityManager,
    quotas: readonly Quota[],
    options: AvailabilityOptions = {},
  ): Promise<Map<number, QuotaAvailabilityResult>> {
    const result = new Map<number, QuotaAvailabilityResult>();
    if (quotas.length === 0) return result;
    const ids = quotas.map((q) => q.id);
    const eventIds = [...new Set(quotas.map((q) => q.eventId))];
    const now = options.now ?? new Date();
    const blocking = await this.blockingVouchers(em, ids, eventIds, now, options.excludeVoucherId ?? null);
    const sales = await this.sales(em, ids, eventIds, now, options.excludeCartIds ?? []);
    for (const quota of quotas) {
      const sold = sales.get(quota.id);
      const counts: QuotaCounts = {
        paid_orders: sold?.paid ?? 0,
        pending_orders: sold?.pending ?? 0,
        exited_orders: sold?.exited ?? 0,
        cart_positions: sold?.carts ?? 0,
        blocking_vouchers: blocking.get(quota.id) ?? 0,
        waiting_list: 0,
      };
      result.set(quota.id, availabilityOf(quota, counts));
    }
    return result;
  }

  /** Paid, pending and exited order positions and live cart positions per quota, in one statement. */
  private async sales(
    em: EntityManager,
    quotaIds: number[],
    eventIds: number[],
    now: Date,
    excludeCartIds: readonly string[],
  ): Promise<Map<number, { paid: number; pending: number; exited: number; carts: number }>> {
    const rows: { quota_id: number; paid: number; pending: number; exited: number; carts: number }[] =
      await em.query(
        `WITH sold AS (
         SELECT op.item_id, op.variation_id, op.subevent_id,
                COUNT(*) FILTER (WHERE o.status = 'p')::int AS paid,
                COUNT(*) FILTER (WHERE o.status = 'n')::int AS pending,
                COUNT(*) FILTER (WHERE o.status = 'p' AND (
                  SELECT c.type FROM checkin c WHERE c.position_id = op.id AND c.successful
                   ORDER BY c.datetime DESC, c.id DESC LIMIT 1) = 'exit')::int AS exited,
                0 AS carts
           FROM order_position op JOIN orders o ON o.id = op.order_id
          WHERE op.event_id = ANY($2) AND NOT op.canceled AND o.status IN ('n', 'p')
          GROUP BY op.item_id, op.variation_id, op.subevent_id
         UNION ALL
         SELECT cp.item_id, cp.variation_id, cp.subevent_id, 0, 0, 0, COUNT(*)::int
           FROM cart_position cp LEFT JOIN voucher v ON v.id = cp.voucher_id
          WHERE cp.event_id = ANY($2) AND cp.expires >= $3 AND NOT COALESCE(v.block_quota, false)
            AND NOT (cp.cart_id = ANY($4::text[]))
          GROUP BY cp.item_id, cp.variation_id, cp.subevent_id
       )
       SELECT q.id AS quota_id, SUM(s.paid)::int AS paid, SUM(s.pending)::int AS pending,
              SUM(s.exited)::int AS exited, SUM(s.carts)::int AS carts
         FROM quota q
         JOIN sold s ON s.subevent_id IS NOT DISTINCT FROM q.subevent_id
          AND ((s.variation_id IS NULL AND EXISTS (
                  SELECT 1 FROM quota_item qi WHERE qi.quota_id = q.id AND qi.item_id = s.item_id))
            OR (s.variation_id IS NOT NULL AND EXISTS (
                  SELECT 1 FROM quota_variation qv WHERE qv.quota_id = q.id AND qv.variation_id = s.variation_id)))
        WHERE q.id = ANY($1)
        GROUP BY q.id`,
        [quotaIds, eventIds, now, [...excludeCartIds]],
      );
    return new Map(rows.map((r) => [r.quota_id, r]));
  }

  /** Places held by blocking vouchers per quota; vouchers are grouped first, so 10,000 vouchers cost little. */
  private async blockingVouchers(
    em: EntityManager,
    quotaIds: number[],
    eventIds: number[],
    now: Date,
    excludeVoucherId: number | null,
  ): Promise<Map<number, number>> {
    const rows: { quota_id: number; n: number }[] = await em.query(
      `WITH v AS (
         SELECT quota_id, item_id, variation_id, subevent_id, SUM(max_usages - redeemed)::int AS n
           FROM voucher
          WHERE event_id = ANY($2) AND block_quota AND redeemed < max_usages
            AND (valid_until IS NULL OR valid_until >= $3)
            AND ($4::int IS NULL OR id <> $4::int)
          GROUP BY quota_id, item_id, variation_id, subevent_id
       )
       SELECT q.id AS quota_id, COALESCE(SUM(v.n), 0)::int AS n
         FROM quota q
         JOIN v ON (q.subevent_id IS NULL OR v.subevent_id = q.subevent_id)
          AND (v.quota_id = q.id
            OR (v.quota_id IS NULL AND v.variation_id IS NULL AND EXISTS (
                  SELECT 1 FROM quota_item qi WHERE qi.quota_id = q.id AND qi.item_id = v.item_id))
            OR (v.quota_id IS NULL AND v.variation_id IS NOT NULL AND EXISTS (
                  SELECT 1 FROM quota_variation qv WHERE qv.quota_id = q.id AND qv.variation_id = v.variation_id)))
        WHERE q.id = ANY($1)
        GROUP BY q.id`,
      [quotaIds, eventIds, now, excludeVoucherId],
    );
    return new Map(rows.map((r) => [r.quota_id, r.n]));
  }
}
