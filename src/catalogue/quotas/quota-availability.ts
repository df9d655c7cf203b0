import type { EntityManager } from 'typeorm';
import { Quota } from './quota.entity';

/** What occupies a quota (spec "Quota availability object"). */
export interface QuotaCounts {
  paid_orders: number;
  pending_orders: number;
  exited_orders: number;
  cart_positions: number;
  blocking_vouchers: number;
  waiting_list: number;
}

/** The availability object of `GET …/quotas/{id}/availability/` (spec "Quota"; compat §3.14). */
export interface QuotaAvailabilityResult extends QuotaCounts {
  available: boolean;
  /** Free places; null for unlimited quotas, 0 when closed or sold out. */
  available_number: number | null;
  /** The quota's size; null for unlimited quotas. */
  total_size: number | null;
}

export interface AvailabilityOptions {
  /** Point in time for validity checks (default now). */
  now?: Date;
  /** A voucher whose own blocking is left out (when a voucher is re-checked while being edited). */
  excludeVoucherId?: number;
  /** Carts whose positions are left out (an order consuming them takes their places over). */
  excludeCartIds?: readonly string[];
}

/**
 * Port through which the catalogue asks how full quotas are. The engine in `orders/` implements it (it counts
 * paid and pending order positions, live cart positions, blocking vouchers and exited tickets). Computing any
 * number of quotas costs a fixed number of SQL statements (architecture.md "Layout").
 */
export interface QuotaAvailability {
  compute(
    em: EntityManager,
    quotas: readonly Quota[],
    options?: AvailabilityOptions,
  ): Promise<Map<number, QuotaAvailabilityResult>>;
}

export const QUOTA_AVAILABILITY = Symbol('QuotaAvailability');

/** Turns counts into availability: closed quotas have nothing left; unlimited ones are always available. */
export function availabilityOf(
  quota: Pick<Quota, 'size' | 'closed' | 'releaseAfterExit'>,
  counts: QuotaCounts,
): QuotaAvailabilityResult {
  if (quota.closed) return { ...counts, available: false, available_number: 0, total_size: quota.size };
  if (quota.size === null) return { ...counts, available: true, available_number: null, total_size: null };
  const taken =
    counts.paid_orders +
    counts.pending_orders +
    counts.cart_positions +
    counts.blocking_vouchers -
    (quota.releaseAfterExit ? counts.exited_orders : 0);
  const left = Math.max(quota.size - taken, 0);
  return { ...counts, available: left > 0, available_number: left, total_size: quota.size };
}

/**
 * Locks quota rows for a reservation, in id order so that concurrent reservations never deadlock; different
 * quotas never wait on each other (architecture.md "Concurrency"). Must run inside the writing transaction.
 */
export async function lockQuotas(em: EntityManager, ids: readonly number[]): Promise<Quota[]> {
  if (ids.length === 0) return [];
  return em
    .getRepository(Quota)
    .createQueryBuilder('q')
    .where('q.id = ANY(:ids)', { ids: [...new Set(ids)] })
    .orderBy('q.id', 'ASC')
    .setLock('pessimistic_write')
    .getMany();
}

/**
 * Quotas that a product draws from: for an item without variations the quotas listing the item, for a variation
 * the quotas listing that variation; restricted to the sub-event (compat §3.14, pretix's position lookup).
 */
export async function quotasForProduct(
  em: EntityManager,
  eventId: number,
  product: { itemId: number; variationId: number | null; subeventId: number | null },
): Promise<number[]> {
  const rows: { id: number }[] = await em.query(
    product.variationId === null
      ? `SELECT q.id FROM quota q JOIN quota_item qi ON qi.quota_id = q.id
          WHERE q.event_id = $1 AND qi.item_id = $2 AND q.subevent_id IS NOT DISTINCT FROM $3 ORDER BY q.id`
      : `SELECT q.id FROM quota q JOIN quota_variation qv ON qv.quota_id = q.id
          WHERE q.event_id = $1 AND qv.variation_id = $2 AND q.subevent_id IS NOT DISTINCT FROM $3 ORDER BY q.id`,
    [eventId, product.variationId ?? product.itemId, product.subeventId],
  );
  return rows.map((r) => r.id);
}
