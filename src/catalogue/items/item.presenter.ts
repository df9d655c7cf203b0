import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import { Decimal, moneyOrNull, toMoney } from '../../common/values/money';
import { AddonJson, toAddonJson } from '../addons/addon.presenter';
import type { ItemAddon } from '../addons/item-addon.entity';
import { BundleJson, toBundleJson } from '../bundles/bundle.presenter';
import type { ItemBundle } from '../bundles/item-bundle.entity';
import type { ItemProgramTime } from '../program-times/item-program-time.entity';
import { InlineProgramTimeJson, toInlineProgramTimeJson } from '../program-times/program-time.presenter';
import { legacySalesChannels } from '../sales-channels';
import type { ItemVariation } from '../variations/item-variation.entity';
import { toVariationJson, VariationJson } from '../variations/variation.presenter';
import type { Item } from './item.entity';
import {
  ApiDateTime,
  ApiEnum,
  ApiI18n,
  ApiInt,
  ApiIntList,
  ApiMoney,
  ApiPercent,
} from '../../common/http/api-schemas';
import { AVAILABILITY_MODES } from './item-choices';
import { MEDIA_POLICIES, MEDIA_TYPES, VALIDITY_MODES } from './item.dto';

/**
 * Wire form of an item (compat §3.10). Money fields are strings with two decimals, datetimes UTC ISO 8601.
 * `variations`, `addons` and `bundles` list the item's objects as their own endpoints return them; `tax_rate` is
 * the rate of the tax rule (`"0.00"` without one); `sales_channels` is the legacy view of the two channel fields.
 */
export class ItemJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  name!: I18nString;
  internal_name!: string | null;
  /** Sorted channel identifiers: all of the organizer's when `all_sales_channels`, else `limit_sales_channels`. */
  sales_channels!: string[];
  all_sales_channels!: boolean;
  limit_sales_channels!: string[];
  @ApiMoney()
  default_price!: string;
  @ApiMoney({ nullable: true })
  original_price!: string | null;
  @ApiInt({ nullable: true })
  category!: number | null;
  active!: boolean;
  @ApiI18n({ nullable: true })
  description!: I18nString | null;
  free_price!: boolean;
  @ApiMoney({ nullable: true })
  free_price_suggestion!: string | null;
  @ApiPercent()
  tax_rate!: string;
  @ApiInt({ nullable: true })
  tax_rule!: number | null;
  admission!: boolean;
  personalized!: boolean;
  issue_giftcard!: boolean;
  meta_data!: Record<string, string>;
  @ApiInt()
  position!: number;
  /** Picture URL; uploads come later, so always null. */
  picture!: string | null;
  @ApiDateTime({ nullable: true })
  available_from!: string | null;
  @ApiEnum(AVAILABILITY_MODES)
  available_from_mode!: string;
  @ApiDateTime({ nullable: true })
  available_until!: string | null;
  @ApiEnum(AVAILABILITY_MODES)
  available_until_mode!: string;
  @ApiInt({ nullable: true })
  hidden_if_available!: number | null;
  @ApiInt({ nullable: true })
  hidden_if_item_available!: number | null;
  @ApiEnum(AVAILABILITY_MODES)
  hidden_if_item_available_mode!: string;
  require_voucher!: boolean;
  hide_without_voucher!: boolean;
  allow_cancel!: boolean;
  require_bundling!: boolean;
  @ApiInt({ nullable: true })
  min_per_order!: number | null;
  @ApiInt({ nullable: true })
  max_per_order!: number | null;
  checkin_attention!: boolean;
  checkin_text!: string | null;
  has_variations!: boolean;
  require_approval!: boolean;
  generate_tickets!: boolean | null;
  show_quota_left!: boolean | null;
  allow_waitinglist!: boolean;
  require_membership!: boolean;
  @ApiIntList()
  require_membership_types!: number[];
  require_membership_hidden!: boolean;
  @ApiInt({ nullable: true })
  grant_membership_type!: number | null;
  grant_membership_duration_like_event!: boolean;
  @ApiInt()
  grant_membership_duration_days!: number;
  @ApiInt()
  grant_membership_duration_months!: number;
  @ApiEnum(VALIDITY_MODES, { nullable: true })
  validity_mode!: string | null;
  @ApiDateTime({ nullable: true })
  validity_fixed_from!: string | null;
  @ApiDateTime({ nullable: true })
  validity_fixed_until!: string | null;
  @ApiInt({ nullable: true })
  validity_dynamic_duration_minutes!: number | null;
  @ApiInt({ nullable: true })
  validity_dynamic_duration_hours!: number | null;
  @ApiInt({ nullable: true })
  validity_dynamic_duration_days!: number | null;
  @ApiInt({ nullable: true })
  validity_dynamic_duration_months!: number | null;
  validity_dynamic_start_choice!: boolean;
  @ApiInt({ nullable: true })
  validity_dynamic_start_choice_day_limit!: number | null;
  @ApiEnum(MEDIA_POLICIES, { nullable: true })
  media_policy!: string | null;
  @ApiEnum(MEDIA_TYPES, { nullable: true })
  media_type!: string | null;
  /** Variations by position, then id. */
  variations!: VariationJson[];
  /** Add-ons by position, then id. */
  addons!: AddonJson[];
  /** Bundles by id. */
  bundles!: BundleJson[];
  /** Program times by id (pretix 2025+; inline form without `id`). */
  program_times!: InlineProgramTimeJson[];
}

/** What an item's wire form needs besides its row; loaded in bulk for list pages. */
export interface ItemRelated {
  /** Rate of the item's tax rule (decimal string), null without a rule. */
  taxRate: string | null;
  /** In output order (see {@link ItemJson}). */
  variations: ItemVariation[];
  addons: ItemAddon[];
  bundles: ItemBundle[];
  programTimes: ItemProgramTime[];
  /** The organizer's sales channel identifiers (the legacy `sales_channels` of an item sold everywhere). */
  channels: string[];
}

/** Entity to wire object, field by field (compat §3.10). */
export function toItemJson(item: Item, related: ItemRelated): ItemJson {
  return {
    id: item.id,
    name: item.name,
    internal_name: item.internalName,
    sales_channels: legacySalesChannels(item.allSalesChannels, item.limitSalesChannels, related.channels),
    all_sales_channels: item.allSalesChannels,
    limit_sales_channels: [...item.limitSalesChannels],
    default_price: toMoney(item.defaultPrice),
    original_price: moneyOrNull(item.originalPrice),
    category: item.categoryId,
    active: item.active,
    description: item.description,
    free_price: item.freePrice,
    free_price_suggestion: moneyOrNull(item.freePriceSuggestion),
    tax_rate: new Decimal(related.taxRate ?? 0).toFixed(2),
    tax_rule: item.taxRuleId,
    admission: item.admission,
    personalized: item.personalized,
    issue_giftcard: item.issueGiftcard,
    meta_data: { ...item.metaData },
    position: item.position,
    picture: null,
    available_from: isoUtc(item.availableFrom),
    available_from_mode: item.availableFromMode,
    available_until: isoUtc(item.availableUntil),
    available_until_mode: item.availableUntilMode,
    hidden_if_available: item.hiddenIfAvailable,
    hidden_if_item_available: item.hiddenIfItemAvailable,
    hidden_if_item_available_mode: item.hiddenIfItemAvailableMode,
    require_voucher: item.requireVoucher,
    hide_without_voucher: item.hideWithoutVoucher,
    allow_cancel: item.allowCancel,
    require_bundling: item.requireBundling,
    min_per_order: item.minPerOrder,
    max_per_order: item.maxPerOrder,
    checkin_attention: item.checkinAttention,
    checkin_text: item.checkinText,
    has_variations: item.hasVariations,
    require_approval: item.requireApproval,
    generate_tickets: item.generateTickets,
    show_quota_left: item.showQuotaLeft,
    allow_waitinglist: item.allowWaitinglist,
    require_membership: item.requireMembership,
    require_membership_types: [...item.requireMembershipTypes],
    require_membership_hidden: item.requireMembershipHidden,
    grant_membership_type: item.grantMembershipType,
    grant_membership_duration_like_event: item.grantMembershipDurationLikeEvent,
    grant_membership_duration_days: item.grantMembershipDurationDays,
    grant_membership_duration_months: item.grantMembershipDurationMonths,
    validity_mode: item.validityMode,
    validity_fixed_from: isoUtc(item.validityFixedFrom),
    validity_fixed_until: isoUtc(item.validityFixedUntil),
    validity_dynamic_duration_minutes: item.validityDynamicDurationMinutes,
    validity_dynamic_duration_hours: item.validityDynamicDurationHours,
    validity_dynamic_duration_days: item.validityDynamicDurationDays,
    validity_dynamic_duration_months: item.validityDynamicDurationMonths,
    validity_dynamic_start_choice: item.validityDynamicStartChoice,
    validity_dynamic_start_choice_day_limit: item.validityDynamicStartChoiceDayLimit,
    media_policy: item.mediaPolicy,
    media_type: item.mediaType,
    variations: related.variations.map((v) => toVariationJson(v, item.defaultPrice, related.channels)),
    addons: related.addons.map(toAddonJson),
    bundles: related.bundles.map(toBundleJson),
    program_times: related.programTimes.map(toInlineProgramTimeJson),
  };
}
