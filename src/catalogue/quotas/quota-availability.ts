import type { EntityManager } from 'typeorm';
import type { Quota } from './quota.entity';

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
  /**
   * Count the open waiting list entries of the quotas' products (`waiting_list`) and take them off the free
   * places, as pretix's availability does for display (`QuotaAvailability(count_waitinglist=True)`): the
   * availability endpoint, `with_availability` and the waiting list's own "currently available" check. Off for
   * reservations (orders, carts, vouchers), which the waiting list does not hold back here.
   */
  countWaitingList?: boolean;
}

/**
 * The products a quota counts (compat §3.14): items without variations (`quota_item`) and variations
 * (`quota_variation`). A position counts on the quota listing its variation, or its item when it has none.
 */
export interface QuotaProducts {
  itemIds: readonly number[];
  variationIds: readonly number[];
}

/** A quota as the engine counts it: the fields availability depends on, and its products. */
export type CountedQuota = Pick<
  Quota,
  'id' | 'eventId' | 'subeventId' | 'size' | 'closed' | 'releaseAfterExit'
> &
  QuotaProducts;

/**
 * Port through which the catalogue asks how full quotas are. The engine in `orders/` implements it (it counts
 * paid and pending order positions, live cart positions and exited tickets, and asks the vouchers for the places
 * blocking vouchers hold). The catalogue passes each quota with its products (from {@link QuotaLookup}), so the
 * engine never reads catalogue tables; any number of quotas costs a fixed number of SQL statements
 * (architecture.md "Layout").
 */
export interface QuotaAvailability {
  compute(
    em: EntityManager,
    quotas: readonly CountedQuota[],
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
    counts.blocking_vouchers +
    counts.waiting_list -
    (quota.releaseAfterExit ? counts.exited_orders : 0);
  const left = Math.max(quota.size - taken, 0);
  return { ...counts, available: left > 0, available_number: left, total_size: quota.size };
}
