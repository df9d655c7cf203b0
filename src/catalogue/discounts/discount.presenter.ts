import { isoUtc } from '../../common/values/datetime';
import { Decimal, toMoney } from '../../common/values/money';
import { legacySalesChannels } from '../sales-channels';
import type { Discount } from './discount.entity';
import {
  ApiDateTime,
  ApiEnum,
  ApiInt,
  ApiIntList,
  ApiMoney,
  ApiPercent,
} from '../../common/http/api-schemas';
import { SUBEVENT_MODES } from './discount.rules';

/** The product lists of a discount (join tables), item ids ascending. */
export interface DiscountProducts {
  condition: number[];
  benefit: number[];
}

/**
 * Wire form of a discount (spec "Discount"; compat §3.25). Money is a string with two decimals, the percent too;
 * datetimes are UTC ISO 8601; `sales_channels` is the deprecated view of the two channel fields.
 */
export class DiscountJson {
  @ApiInt()
  id!: number;
  active!: boolean;
  internal_name!: string;
  @ApiInt()
  position!: number;
  all_sales_channels!: boolean;
  limit_sales_channels!: string[];
  /** Sorted channel identifiers: all of the organizer's when `all_sales_channels`, else `limit_sales_channels`. */
  sales_channels!: string[];
  @ApiDateTime({ nullable: true })
  available_from!: string | null;
  @ApiDateTime({ nullable: true })
  available_until!: string | null;
  /** `mixed`, `same` or `distinct`. */
  @ApiEnum(SUBEVENT_MODES)
  subevent_mode!: string;
  @ApiDateTime({ nullable: true })
  subevent_date_from!: string | null;
  @ApiDateTime({ nullable: true })
  subevent_date_until!: string | null;
  condition_all_products!: boolean;
  @ApiIntList()
  condition_limit_products!: number[];
  condition_apply_to_addons!: boolean;
  condition_ignore_voucher_discounted!: boolean;
  @ApiInt()
  condition_min_count!: number;
  @ApiMoney()
  condition_min_value!: string;
  @ApiPercent()
  benefit_discount_matching_percent!: string;
  @ApiInt({ nullable: true })
  benefit_only_apply_to_cheapest_n_matches!: number | null;
  benefit_same_products!: boolean;
  @ApiIntList()
  benefit_limit_products!: number[];
  benefit_apply_to_addons!: boolean;
  benefit_ignore_voucher_discounted!: boolean;
}

/** Entity plus its product lists to wire object, field by field. */
/** @param channels the organizer's channel identifiers (the legacy `sales_channels` of a discount on every channel) */
export function toDiscountJson(
  discount: Discount,
  products: DiscountProducts,
  channels: readonly string[],
): DiscountJson {
  return {
    id: discount.id,
    active: discount.active,
    internal_name: discount.internalName,
    position: discount.position,
    all_sales_channels: discount.allSalesChannels,
    limit_sales_channels: [...discount.limitSalesChannels],
    sales_channels: legacySalesChannels(discount.allSalesChannels, discount.limitSalesChannels, channels),
    available_from: isoUtc(discount.availableFrom),
    available_until: isoUtc(discount.availableUntil),
    subevent_mode: discount.subeventMode,
    subevent_date_from: isoUtc(discount.subeventDateFrom),
    subevent_date_until: isoUtc(discount.subeventDateUntil),
    condition_all_products: discount.conditionAllProducts,
    condition_limit_products: [...products.condition],
    condition_apply_to_addons: discount.conditionApplyToAddons,
    condition_ignore_voucher_discounted: discount.conditionIgnoreVoucherDiscounted,
    condition_min_count: discount.conditionMinCount,
    condition_min_value: toMoney(discount.conditionMinValue),
    benefit_discount_matching_percent: new Decimal(discount.benefitDiscountMatchingPercent).toFixed(2),
    benefit_only_apply_to_cheapest_n_matches: discount.benefitOnlyApplyToCheapestNMatches,
    benefit_same_products: discount.benefitSameProducts,
    benefit_limit_products: [...products.benefit],
    benefit_apply_to_addons: discount.benefitApplyToAddons,
    benefit_ignore_voucher_discounted: discount.benefitIgnoreVoucherDiscounted,
  };
}
