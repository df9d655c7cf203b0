import type { QuotaAvailabilityResult } from './quota-availability';
import type { Quota } from './quota.entity';
import { ApiInt, ApiIntList } from '../../common/http/api-schemas';

/** Item and variation ids of one quota, ascending. */
export interface QuotaRefs {
  items: number[];
  variations: number[];
}

/**
 * Wire form of a quota (spec "Quota"; compat §3.14). `available` and `available_number` are present only when
 * asked for with `with_availability=true`.
 */
export class QuotaJson {
  @ApiInt()
  id!: number;
  name!: string;
  /** Number of places; null means unlimited. */
  @ApiInt({ nullable: true })
  size!: number | null;
  /** Item ids, ascending. */
  @ApiIntList()
  items!: number[];
  /** Variation ids, ascending. */
  @ApiIntList()
  variations!: number[];
  @ApiInt({ nullable: true })
  subevent!: number | null;
  close_when_sold_out!: boolean;
  closed!: boolean;
  release_after_exit!: boolean;
  ignore_for_event_availability!: boolean;
  /** Only with `with_availability=true`: whether places are left (false when closed). */
  available?: boolean;
  /** Only with `with_availability=true`: free places; null for unlimited quotas, 0 when closed. */
  @ApiInt({ nullable: true })
  available_number?: number | null;
}

/**
 * The availability object of `GET E/quotas/{id}/availability/` (spec "Quota availability object"; compat
 * §3.14). Counts are numbers of places; `total_size` and `available_number` are null for unlimited quotas.
 */
export class QuotaAvailabilityJson {
  available!: boolean;
  @ApiInt({ nullable: true })
  available_number!: number | null;
  @ApiInt({ nullable: true })
  total_size!: number | null;
  @ApiInt()
  pending_orders!: number;
  @ApiInt()
  paid_orders!: number;
  @ApiInt()
  exited_orders!: number;
  @ApiInt()
  cart_positions!: number;
  @ApiInt()
  blocking_vouchers!: number;
  @ApiInt()
  waiting_list!: number;
}

/** Entity plus its item/variation ids (and optionally its availability) to the wire object, field by field. */
export function toQuotaJson(
  quota: Quota,
  refs: QuotaRefs,
  availability?: QuotaAvailabilityResult,
): QuotaJson {
  const json: QuotaJson = {
    id: quota.id,
    name: quota.name,
    size: quota.size,
    items: [...refs.items],
    variations: [...refs.variations],
    subevent: quota.subeventId,
    close_when_sold_out: quota.closeWhenSoldOut,
    closed: quota.closed,
    release_after_exit: quota.releaseAfterExit,
    ignore_for_event_availability: quota.ignoreForEventAvailability,
  };
  if (availability) {
    json.available = availability.available;
    json.available_number = availability.available_number;
  }
  return json;
}

/** The engine's result to the availability object, key by key. */
export function toQuotaAvailabilityJson(result: QuotaAvailabilityResult): QuotaAvailabilityJson {
  return {
    available: result.available,
    available_number: result.available_number,
    total_size: result.total_size,
    pending_orders: result.pending_orders,
    paid_orders: result.paid_orders,
    exited_orders: result.exited_orders,
    cart_positions: result.cart_positions,
    blocking_vouchers: result.blocking_vouchers,
    waiting_list: result.waiting_list,
  };
}
