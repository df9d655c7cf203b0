import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsMoney,
  IsStr,
  Nullable,
  Optional,
} from '../../common/validation/fields';

/** `price_mode` choices (compat §3.23): no effect, set a price, subtract an amount, subtract a percentage. */
export const PRICE_MODES = ['none', 'set', 'subtract', 'percent'] as const;

/**
 * Body of `POST E/vouchers/`, `PUT E/vouchers/{id}/` and of each entry of `POST E/vouchers/batch_create/`
 * (spec "Voucher"; compat §3.23). Every field is optional (`{}` is a valid voucher for all products). Money
 * fields take a number or a string with at most two decimals; `valid_until` is ISO 8601. `id`, `created`,
 * `redeemed` and `budget_used` are read-only and ignored.
 */
export class CreateVoucherDto {
  /** 5 to 255 characters, unique per event case-insensitively; a random 16-character code when omitted. */
  @Optional()
  @IsStr({ blank: false, min: 5, max: 255 })
  code?: string;

  /** Default 1. */
  @Optional()
  @IsInteger({ min: 1 })
  max_usages?: number;

  /** Minimum number of redemptions on first use; default 1, at most `max_usages`. */
  @Optional()
  @IsInteger({ min: 1 })
  min_usages?: number;

  /** UTC datetime after which the voucher cannot be redeemed (and no longer blocks quota); null: no end. */
  @Nullable()
  @IsDateTimeString()
  valid_until?: string | null;

  /** Reserve `max_usages - redeemed` places in the quotas of `item`/`variation` or in `quota`. */
  @Optional()
  @IsBool()
  block_quota?: boolean;

  @Optional()
  @IsBool()
  allow_ignore_quota?: boolean;

  /** `none` (default), `set`, `subtract` or `percent`. */
  @Optional()
  @IsChoice(PRICE_MODES)
  price_mode?: string;

  /** Money string used according to `price_mode`; default `"0.00"`. */
  @Optional()
  @IsMoney()
  value?: string | number;

  /** Item id of the same event; excludes `quota`. */
  @Nullable()
  @IsInteger()
  item?: number | null;

  /** Variation id of `item`. */
  @Nullable()
  @IsInteger()
  variation?: number | null;

  /** Quota id of the same event; excludes `item`. */
  @Nullable()
  @IsInteger()
  quota?: number | null;

  /**
   * Guid of a seat of the event (of the voucher's date on a series) to bind the voucher to: it then reserves the
   * seat; needs the seat's product as `item` and `max_usages` 1.
   */
  @Nullable()
  @IsStr({ max: 190 })
  seat?: string | null;

  @Optional()
  @IsStr({ max: 255 })
  tag?: string;

  @Optional()
  @IsStr()
  comment?: string;

  /** Sub-event id (series come later: only null is accepted now). */
  @Nullable()
  @IsInteger()
  subevent?: number | null;

  /** Default true. */
  @Optional()
  @IsBool()
  show_hidden_items?: boolean;

  @Optional()
  @IsBool()
  all_addons_included?: boolean;

  @Optional()
  @IsBool()
  all_bundles_included?: boolean;

  /** Money string ≥ 0 the voucher may discount in total, or null for no limit. */
  @Nullable()
  @IsMoney({ min: 0 })
  budget?: string | number | null;
}

/** Body of `PATCH E/vouchers/{id}/`: every field optional; null only where create allows it. */
export class UpdateVoucherDto extends PartialType(CreateVoucherDto, { skipNullProperties: false }) {}
