import { ApiDateTime, ApiInt, ApiMoney, ApiPercent } from '../../common/http/api-schemas';
import { isoUtc } from '../../common/values/datetime';
import { toMoney } from '../../common/values/money';
import type { OrderTransaction } from './order-transaction.entity';
import type { TransactionRefs } from './order-transaction.queries';

/** An entry of `E/transactions/` (pretix 2025.7 transaction resource): one change of what an order sells. */
export class TransactionJson {
  @ApiInt()
  id!: number;
  /** Code of the order. */
  order!: string;
  /** When the row was written (UTC). */
  @ApiDateTime()
  created!: string;
  /** When the change happened (UTC). */
  @ApiDateTime()
  datetime!: string;
  /** Number of the position within its order; null for a fee. */
  @ApiInt({ nullable: true })
  positionid!: number | null;
  /** How many of this line were added (positive) or removed (negative); usually 1 or -1. */
  @ApiInt()
  count!: number;
  @ApiInt({ nullable: true })
  item!: number | null;
  @ApiInt({ nullable: true })
  variation!: number | null;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  /** Gross price of one. */
  @ApiMoney()
  price!: string;
  @ApiPercent()
  tax_rate!: string;
  @ApiInt({ nullable: true })
  tax_rule!: number | null;
  /** Tax code of the line, or null. */
  tax_code!: string | null;
  /** Tax contained in `price`. */
  @ApiMoney()
  tax_value!: string;
  /** The fee's type (`payment`, `shipping`, `service`, `cancellation`, …); null for a position. */
  fee_type!: string | null;
  /** The fee's internal type; null for a position. */
  internal_type!: string | null;
}

/** An entry of `O/transactions/`: {@link TransactionJson} with the event's slug. */
export class OrganizerTransactionJson extends TransactionJson {
  /** Slug of the order's event. */
  event!: string;
}

/** The wire object of a transaction row (every field named). */
export function toTransactionJson(t: OrderTransaction, refs: TransactionRefs): TransactionJson {
  return {
    id: t.id,
    order: refs.order,
    created: isoUtc(t.created),
    datetime: isoUtc(t.datetime),
    positionid: t.positionid,
    count: t.count,
    item: t.itemId,
    variation: t.variationId,
    subevent: t.subeventId,
    price: toMoney(t.price),
    tax_rate: toMoney(t.taxRate),
    tax_rule: t.taxRuleId,
    tax_code: t.taxCode,
    tax_value: toMoney(t.taxValue),
    fee_type: t.feeType,
    internal_type: t.internalType,
  };
}

/** {@link toTransactionJson} with `event` (the organizer-level list). */
export function toOrganizerTransactionJson(
  t: OrderTransaction,
  refs: TransactionRefs,
): OrganizerTransactionJson {
  return { ...toTransactionJson(t, refs), event: refs.event };
}
