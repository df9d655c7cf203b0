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
 *   `max_usages - redeemed` places in the quotas of its quota, item or variation (and sub-event).
 * Order positions, cart positions and exits join in with the orders issue.
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
    for (const quota of quotas) {
      const counts: QuotaCounts = {
        paid_orders: 0,
        pending_orders: 0,
        exited_orders: 0,
        cart_positions: 0,
        blocking_vouchers: blocking.get(quota.id) ?? 0,
        waiting_list: 0,
      };
      result.set(quota.id, availabilityOf(quota, counts));
    }
    return result;
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
