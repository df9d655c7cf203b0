import type { CountedQuota, QuotaCounts } from '../../catalogue/quotas/quota-availability';

/**
 * Pure part of the quota engine: summing what occupies each quota from counts per product. Unit-tested in
 * `quota-engine.rules.spec.ts`.
 */

/** Occupation of one product (item, variation, sub-event) by sales, as the engine's statement returns it. */
export interface ProductSales {
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  /** The voucher of the cart positions of this row (carts are grouped by voucher too); null for the rest. */
  voucher_id: number | null;
  paid: number;
  pending: number;
  exited: number;
  carts: number;
}

/** Open waiting list entries of one product (item, variation, sub-event). */
export interface ProductWaiting {
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  n: number;
}

const key = (id: number, subevent: number | null): string => `${id}/${subevent ?? ''}`;

/**
 * Sums paid, pending and exited positions and live cart positions over the products of each quota: a row counts
 * on a quota of its sub-event listing its variation, or its item when it has no variation. Cart positions holding
 * a blocking voucher do not count (the voucher already holds their place).
 * @param blockingPlaces places held by blocking vouchers per quota id
 * @param blockingVouchers ids of vouchers with `block_quota`
 * @param waiting open waiting list entries per product (counted like sales: by variation, else by item)
 */
export function sumQuotaCounts(
  quotas: readonly CountedQuota[],
  rows: readonly ProductSales[],
  blockingPlaces: ReadonlyMap<number, number>,
  blockingVouchers: ReadonlySet<number>,
  waiting: readonly ProductWaiting[] = [],
): Map<number, QuotaCounts> {
  const waitingByItem = new Map<string, number>();
  const waitingByVariation = new Map<string, number>();
  for (const w of waiting) {
    const [map, k] =
      w.variation_id === null
        ? [waitingByItem, key(w.item_id, w.subevent_id)]
        : [waitingByVariation, key(w.variation_id, w.subevent_id)];
    map.set(k, (map.get(k) ?? 0) + w.n);
  }
  const byItem = new Map<string, ProductSales[]>();
  const byVariation = new Map<string, ProductSales[]>();
  for (const row of rows) {
    if (row.voucher_id !== null && blockingVouchers.has(row.voucher_id)) continue;
    const [map, k] =
      row.variation_id === null
        ? [byItem, key(row.item_id, row.subevent_id)]
        : [byVariation, key(row.variation_id, row.subevent_id)];
    map.set(k, [...(map.get(k) ?? []), row]);
  }
  const out = new Map<number, QuotaCounts>();
  for (const quota of quotas) {
    const counts: QuotaCounts = {
      paid_orders: 0,
      pending_orders: 0,
      exited_orders: 0,
      cart_positions: 0,
      blocking_vouchers: blockingPlaces.get(quota.id) ?? 0,
      waiting_list: 0,
    };
    const matching = [
      ...[...new Set(quota.itemIds)].flatMap((id) => byItem.get(key(id, quota.subeventId)) ?? []),
      ...[...new Set(quota.variationIds)].flatMap((id) => byVariation.get(key(id, quota.subeventId)) ?? []),
    ];
    for (const id of new Set(quota.itemIds))
      counts.waiting_list += waitingByItem.get(key(id, quota.subeventId)) ?? 0;
    for (const id of new Set(quota.variationIds))
      counts.waiting_list += waitingByVariation.get(key(id, quota.subeventId)) ?? 0;
    for (const row of matching) {
      counts.paid_orders += row.paid;
      counts.pending_orders += row.pending;
      counts.exited_orders += row.exited;
      counts.cart_positions += row.carts;
    }
    out.set(quota.id, counts);
  }
  return out;
}
