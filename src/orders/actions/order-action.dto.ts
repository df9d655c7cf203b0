import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBool, IsMoney, IsStr, Nullable, Optional } from '../../common/validation/fields';

/**
 * Bodies of the order actions `POST E/orders/{code}/<action>/` (compat §4.4 "Actions"). Every field is optional;
 * `mark_pending`, `mark_expired` and `reactivate` take no body at all. Unknown fields are ignored (compat §7.5).
 */

/** `mark_paid`: whether the customer gets the "payment received" e-mail (default true). */
export class MarkPaidDto {
  /** Send the "payment received" e-mail to the order's address; default true. */
  @Optional()
  @IsBool()
  send_email?: boolean;
}

/** `mark_canceled`: e-mail, optional cancellation fee (money, kept from the payments) and a comment. */
export class MarkCanceledDto {
  /** Send the cancellation e-mail to the order's address; default true. */
  @Optional()
  @IsBool()
  send_email?: boolean;

  /**
   * Money kept from the payments (string or number, two decimals). When set and not zero, the order stays paid
   * with this fee as its only component; null or `"0.00"` cancels the order completely.
   */
  @Nullable()
  @IsMoney({ min: 0 })
  @ApiPropertyOptional({ example: '5.00' })
  cancellation_fee?: string | number | null;

  /** A note for the customer, used in the e-mail and the log entry. */
  @Nullable()
  @IsStr()
  comment?: string | null;
}

/** `extend`: the new payment deadline (a date; the order expires at its end in the event's time zone). */
export class ExtendOrderDto {
  /**
   * `YYYY-MM-DD`. Checked by the service so that the answers are pretix's: missing →
   * `{"detail": "New date is missing."}`, malformed → `{"detail": "New date is invalid."}`.
   */
  @Nullable()
  @ApiPropertyOptional({ type: String, format: 'date', example: '2030-10-28' })
  expires?: unknown;

  /** Revive an expired order even when its quotas are full (overbooking); default false. */
  @Optional()
  @IsBool()
  force?: boolean;
}

/** `approve`: whether the customer gets the approval e-mail (default true). */
export class ApproveOrderDto {
  /** Send the approval e-mail to the order's address; default true. */
  @Optional()
  @IsBool()
  send_email?: boolean;
}

/** `deny`: e-mail and a comment for the customer. */
export class DenyOrderDto {
  /** Send the denial e-mail to the order's address; default true. */
  @Optional()
  @IsBool()
  send_email?: boolean;

  /** The reason, used in the e-mail and the log entry. */
  @Nullable()
  @IsStr()
  comment?: string | null;
}
