import { applyDecorators } from '@nestjs/common';
import { PartialType } from '@nestjs/swagger';
import { ApiPercent } from '../../common/http/api-schemas';
import {
  checkDecimal,
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsIntList,
  IsMoney,
  IsStr,
  IsStrList,
  Nullable,
  Optional,
  Required,
  rule,
} from '../../common/validation/fields';
import { SUBEVENT_MODES } from './discount.rules';

/** A percentage: number or decimal string, 10 digits, 2 decimals, 0 to 100. */
function IsPercent(): PropertyDecorator {
  const check = rule('isPercent', (v) => {
    const error = checkDecimal(v, 10, 2, 0);
    if (error || v === undefined || v === null) return error;
    return Number(v) > 100 ? 'Ensure this value is less than or equal to 100.' : null;
  });
  return applyDecorators(check, ApiPercent({ input: true }));
}

/**
 * Body of `POST E/discounts/` and `PUT E/discounts/{id}/` (spec "Discount"; compat §3.25). Money and percent
 * fields take a number or a string with at most two decimals; datetimes are ISO 8601. A discount needs either
 * `condition_min_count` or `condition_min_value` (checked by the service on the merged data).
 */
export class CreateDiscountDto {
  /** Inactive discounts are ignored (default true). */
  @Optional()
  @IsBool()
  active?: boolean;

  @Required()
  @IsStr({ max: 255, blank: false })
  internal_name!: string;

  /** Discounts apply in this order (default 0). */
  @Optional()
  @IsInteger({ min: 0 })
  position?: number;

  /** Valid on every sales channel (default true); when false, only on `limit_sales_channels`. */
  @Optional()
  @IsBool()
  all_sales_channels?: boolean;

  @Optional()
  @IsStrList(undefined, { max: 200 })
  limit_sales_channels?: string[];

  /**
   * Deprecated form of the two fields above: all known channels means `all_sales_channels`, otherwise the list
   * is `limit_sales_channels`. Null is refused.
   */
  @Nullable()
  @IsStrList(undefined, { max: 200 })
  sales_channels?: string[] | null;

  @Nullable()
  @IsDateTimeString()
  available_from?: string | null;

  @Nullable()
  @IsDateTimeString()
  available_until?: string | null;

  /** `mixed` (default), `same` or `distinct`. */
  @Optional()
  @IsChoice(SUBEVENT_MODES)
  subevent_mode?: string;

  /** Only dates (sub-events) starting at or after this time count; null for any. */
  @Nullable()
  @IsDateTimeString()
  subevent_date_from?: string | null;

  /** Only dates (sub-events) starting at or before this time count; null for any. */
  @Nullable()
  @IsDateTimeString()
  subevent_date_until?: string | null;

  @Optional()
  @IsBool()
  condition_all_products?: boolean;

  /** Item ids of this event; used when `condition_all_products` is false. */
  @Optional()
  @IsIntList()
  condition_limit_products?: number[];

  @Optional()
  @IsBool()
  condition_apply_to_addons?: boolean;

  @Optional()
  @IsBool()
  condition_ignore_voucher_discounted?: boolean;

  /** Minimum number of matching products (0 = none). */
  @Optional()
  @IsInteger({ min: 0 })
  condition_min_count?: number;

  /** Minimum value of matching products, money (`"0.00"` = none). */
  @Optional()
  @IsMoney({ min: 0 })
  condition_min_value?: string | number;

  /** Percent reduction, 0 to 100. */
  @Optional()
  @IsPercent()
  benefit_discount_matching_percent?: string | number;

  /** Only the cheapest n matches get the benefit; null (or 0, stored as null) for all. */
  @Nullable()
  @IsInteger({ min: 0 })
  benefit_only_apply_to_cheapest_n_matches?: number | null;

  @Optional()
  @IsBool()
  benefit_same_products?: boolean;

  /** Item ids of this event; used when `benefit_same_products` is false. */
  @Optional()
  @IsIntList()
  benefit_limit_products?: number[];

  @Optional()
  @IsBool()
  benefit_apply_to_addons?: boolean;

  @Optional()
  @IsBool()
  benefit_ignore_voucher_discounted?: boolean;
}

/** Body of `PATCH E/discounts/{id}/`: every field optional; null only where create allows it. */
export class UpdateDiscountDto extends PartialType(CreateDiscountDto, { skipNullProperties: false }) {}
