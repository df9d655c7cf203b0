import { ApiDateTime, ApiEnum, ApiInt, ApiMoney } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import { toMoney } from '../../common/values/money';
import type { OrderRefund } from '../entities/order-refund.entity';
import type { OrderStatus } from '../entities/order.entity';

/**
 * Value sets and nested shapes of the order wire forms (`order.presenter.ts`) as the OpenAPI document describes
 * them, in pretix's shape so that generated clients type them.
 */

/** Order `status`: `n` pending, `p` paid, `e` expired, `c` canceled. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['n', 'p', 'e', 'c'];

/** Payment `state` (pretix's set). */
export const PAYMENT_STATES = ['created', 'pending', 'confirmed', 'canceled', 'failed', 'refunded'] as const;

/** Check-in `type`. */
export const CHECKIN_TYPES = ['entry', 'exit'] as const;

/** Refund `state` (pretix's set). */
export const REFUND_STATES = ['created', 'transit', 'done', 'failed', 'canceled', 'external'] as const;

/** Refund `source` (pretix's set). */
export const REFUND_SOURCES = ['admin', 'buyer', 'external'] as const;

/** Print log `type` (pretix's set). */
export const PRINT_TYPES = ['admission', 'certificate', 'badge', 'other'] as const;

/** A ticket download of an order or position (pretix `downloads`). */
export class DownloadJson {
  /** Identifier of the ticket output, e.g. `pdf`. */
  output!: string;
  /** Absolute URL of the download endpoint (`API_URL`, or the request's origin). */
  url!: string;
}

/** A print of a position's ticket or badge (pretix `print_logs`). */
export class PrintLogJson {
  @ApiInt()
  id!: number;
  successful!: boolean;
  @ApiInt({ nullable: true })
  device_id!: number | null;
  source!: string;
  @ApiEnum(PRINT_TYPES)
  type!: string;
  @ApiDateTime()
  datetime!: string;
  info!: Record<string, string>;
}

/** A refund of an order (pretix `refunds`). */
export class OrderRefundJson {
  @ApiInt()
  local_id!: number;
  @ApiEnum(REFUND_STATES)
  state!: string;
  @ApiEnum(REFUND_SOURCES)
  source!: string;
  @ApiMoney()
  amount!: string;
  /** `local_id` of the refunded payment. */
  @ApiInt({ nullable: true })
  payment!: number | null;
  @ApiDateTime()
  created!: string;
  @ApiDateTime({ nullable: true })
  execution_date!: string | null;
  comment!: string | null;
  provider!: string;
  details!: Record<string, string>;
}

/** The seat of a position or cart position. */
export class PositionSeatJson {
  @ApiInt()
  id!: number;
  name!: string;
  seat_guid!: string;
}

/** A refund in pretix's wire form (pretix doc "Order refund endpoints"). */
export function toOrderRefundJson(r: OrderRefund, paymentLocalId: number | null): OrderRefundJson {
  return {
    local_id: r.localId,
    state: r.state,
    source: r.source,
    amount: toMoney(r.amount),
    payment: paymentLocalId,
    created: isoUtc(r.created),
    execution_date: isoUtc(r.executionDate),
    comment: r.comment,
    provider: r.provider,
    details: {},
  };
}
