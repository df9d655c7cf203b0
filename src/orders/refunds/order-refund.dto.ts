import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsJsonObject,
  IsMoney,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import { REFUND_SOURCES, REFUND_STATES } from '../presentation/order-parts.presenter';

/**
 * Bodies of the order refund endpoints (pretix doc "Order refund endpoints"). Unknown fields are ignored
 * (compat §7.5); bad values answer 400 naming the field.
 */

/** `POST E/orders/{code}/refunds/`: a refund recorded by hand. */
export class CreateOrderRefundDto {
  /** `created`, `transit`, `done`, `failed`, `canceled` or `external`. */
  @Required()
  @IsChoice(REFUND_STATES)
  state!: string;

  /** `admin`, `buyer` or `external`. */
  @Required()
  @IsChoice(REFUND_SOURCES)
  source!: string;

  /** Money, e.g. `"10.00"`. */
  @Required()
  @IsMoney()
  amount!: string | number;

  /** `local_id` of the refunded payment of this order, or null. */
  @Nullable()
  @IsInteger()
  payment?: number | null;

  /** When the refund was executed (UTC datetime). */
  @Nullable()
  @IsDateTimeString()
  execution_date?: string | null;

  /**
   * Payment provider identifier, e.g. `manual`. `giftcard` puts the amount on a gift card at once (state `done`):
   * the card of `info`, else the card of the gift card `payment`, else a new card.
   */
  @Required()
  @IsStr({ max: 100, blank: false })
  provider!: string;

  /**
   * Provider-specific information (stored, not presented). `giftcard`: `gift_card` (the card's id) or
   * `gift_card_secret`; replaced by `gift_card`, `gift_card_secret`, `transaction_id`.
   */
  @Nullable()
  @IsJsonObject()
  info?: Record<string, unknown> | null;

  /** A note stored on the refund. */
  @Nullable()
  @IsStr()
  comment?: string | null;

  /** Cancel the order afterwards; default false. */
  @Optional()
  @IsBool()
  mark_canceled?: boolean;

  /** A paid order whose payments no longer cover it becomes pending; default false. */
  @Optional()
  @IsBool()
  mark_pending?: boolean;
}

/** `POST …/refunds/{local_id}/process/`. */
export class ProcessOrderRefundDto {
  /** Cancel the order afterwards; default false (a paid order no longer covered becomes pending). */
  @Optional()
  @IsBool()
  mark_canceled?: boolean;
}
