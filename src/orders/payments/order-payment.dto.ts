import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsJsonObject,
  IsMoney,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import { PAYMENT_STATES } from '../presentation/order-parts.presenter';

/**
 * Bodies of the order payment endpoints (pretix doc "Order payment endpoints"). Unknown fields are ignored
 * (compat §7.5); bad values answer 400 naming the field.
 */

/** `POST E/orders/{code}/payments/`: a payment recorded by hand. */
export class CreateOrderPaymentDto {
  /** `created`, `pending`, `confirmed`, `canceled`, `failed` or `refunded`; `confirmed` counts at once. */
  @Required()
  @IsChoice(PAYMENT_STATES)
  state!: string;

  /** Money, e.g. `"50.00"`. */
  @Required()
  @IsMoney()
  amount!: string | number;

  /** When the money came in (UTC datetime); default: now for a confirmed payment. */
  @Nullable()
  @IsDateTimeString()
  payment_date?: string | null;

  /**
   * Payment provider identifier, e.g. `banktransfer` or `manual`; `giftcard` takes the amount from the card of
   * `info` when the payment is confirmed.
   */
  @Required()
  @IsStr({ max: 100, blank: false })
  provider!: string;

  /**
   * Provider-specific information (stored, not presented). `giftcard`: `gift_card` (the card's id) or
   * `gift_card_secret`; replaced by `gift_card`, `gift_card_secret`, `transaction_id` once the value is taken.
   */
  @Nullable()
  @IsJsonObject()
  info?: Record<string, unknown> | null;

  /** Accepted for pretix compatibility; no e-mail is sent by this endpoint yet. */
  @Optional()
  @IsBool()
  send_email?: boolean;

  /** For a `confirmed` payment of an expired order: mark it paid even when quotas are full. */
  @Optional()
  @IsBool()
  force?: boolean;
}

/** `POST …/payments/{local_id}/confirm/`. */
export class ConfirmOrderPaymentDto {
  /** Mark an expired order paid even when its quotas are full (overbooking); default false. */
  @Optional()
  @IsBool()
  force?: boolean;

  /** Accepted for pretix compatibility; no e-mail is sent by this endpoint yet. */
  @Optional()
  @IsBool()
  send_email?: boolean;
}

/** `POST …/payments/{local_id}/refund/`. */
export class RefundOrderPaymentDto {
  /** Money to refund; default: the payment's full amount. At most what is left to refund of the payment. */
  @Optional()
  @IsMoney()
  amount?: string | number;

  /** Cancel the order when its payments no longer cover its total after the refund; default false. */
  @Optional()
  @IsBool()
  mark_canceled?: boolean;

  /** A note stored on the refund. */
  @Nullable()
  @IsStr()
  comment?: string | null;
}
