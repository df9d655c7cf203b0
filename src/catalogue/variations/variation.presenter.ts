import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import { moneyOrNull, toMoney } from '../../common/values/money';
import { legacySalesChannels } from '../sales-channels';
import type { ItemVariation } from './item-variation.entity';
import { ApiDateTime, ApiEnum, ApiI18n, ApiInt, ApiIntList, ApiMoney } from '../../common/http/api-schemas';
import { AVAILABILITY_MODES } from '../items/item-choices';

/**
 * Wire form of an item variation (spec "Item variation"; compat §3.11), as the variation endpoints return it and as
 * items list it inline. Money fields are strings with two decimals, datetimes UTC ISO 8601.
 */
export class VariationJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  value!: I18nString;
  /** Price set directly for the variation, or null. */
  @ApiMoney({ nullable: true })
  default_price!: string | null;
  /** Effective price (read-only): `default_price`, else the item's `default_price`. */
  @ApiMoney()
  price!: string;
  @ApiMoney({ nullable: true })
  original_price!: string | null;
  @ApiMoney({ nullable: true })
  free_price_suggestion!: string | null;
  active!: boolean;
  @ApiI18n({ nullable: true })
  description!: I18nString | null;
  @ApiInt()
  position!: number;
  checkin_attention!: boolean;
  checkin_text!: string | null;
  require_approval!: boolean;
  require_membership!: boolean;
  require_membership_hidden!: boolean;
  /** Membership type ids, ascending. */
  @ApiIntList()
  require_membership_types!: number[];
  /** Legacy view of the two channel fields: all known channels when `all_sales_channels`, else the limit list. */
  sales_channels!: string[];
  all_sales_channels!: boolean;
  limit_sales_channels!: string[];
  @ApiDateTime({ nullable: true })
  available_from!: string | null;
  @ApiEnum(AVAILABILITY_MODES)
  available_from_mode!: string;
  @ApiDateTime({ nullable: true })
  available_until!: string | null;
  @ApiEnum(AVAILABILITY_MODES)
  available_until_mode!: string;
  hide_without_voucher!: boolean;
  meta_data!: Record<string, string>;
}

/**
 * Entity to wire object, field by field.
 * @param itemDefaultPrice the item's `default_price` (money string), used for `price` when the variation has none
 */
/** @param channels the organizer's channel identifiers (the legacy `sales_channels` of a variation sold everywhere) */
export function toVariationJson(
  variation: ItemVariation,
  itemDefaultPrice: string,
  channels: readonly string[],
): VariationJson {
  return {
    id: variation.id,
    value: variation.value,
    default_price: moneyOrNull(variation.defaultPrice),
    price: toMoney(variation.defaultPrice ?? itemDefaultPrice),
    original_price: moneyOrNull(variation.originalPrice),
    free_price_suggestion: moneyOrNull(variation.freePriceSuggestion),
    active: variation.active,
    description: variation.description,
    position: variation.position,
    checkin_attention: variation.checkinAttention,
    checkin_text: variation.checkinText,
    require_approval: variation.requireApproval,
    require_membership: variation.requireMembership,
    require_membership_hidden: variation.requireMembershipHidden,
    require_membership_types: [...variation.requireMembershipTypes],
    sales_channels: legacySalesChannels(variation.allSalesChannels, variation.limitSalesChannels, channels),
    all_sales_channels: variation.allSalesChannels,
    limit_sales_channels: [...variation.limitSalesChannels],
    available_from: isoUtc(variation.availableFrom),
    available_from_mode: variation.availableFromMode,
    available_until: isoUtc(variation.availableUntil),
    available_until_mode: variation.availableUntilMode,
    hide_without_voucher: variation.hideWithoutVoucher,
    meta_data: { ...variation.metaData },
  };
}
