import { isoUtc } from '../../common/values/datetime';
import { moneyOrNull, toMoney } from '../../common/values/money';
import type { Voucher } from './voucher.entity';
import { ApiDateTime, ApiEnum, ApiInt, ApiMoney } from '../../common/http/api-schemas';
import { PRICE_MODES } from './voucher.dto';

/**
 * Wire form of a voucher (spec "Voucher"; compat §3.23). Money fields are strings with two decimals,
 * datetimes UTC ISO 8601.
 */
export class VoucherJson {
  @ApiInt()
  id!: number;
  code!: string;
  @ApiInt()
  max_usages!: number;
  /** Read-only: how often the voucher has been used. */
  @ApiInt()
  redeemed!: number;
  @ApiInt()
  min_usages!: number;
  @ApiDateTime({ nullable: true })
  valid_until!: string | null;
  block_quota!: boolean;
  allow_ignore_quota!: boolean;
  /** `none`, `set`, `subtract` or `percent`. */
  @ApiEnum(PRICE_MODES)
  price_mode!: string;
  @ApiMoney()
  value!: string;
  @ApiInt({ nullable: true })
  item!: number | null;
  @ApiInt({ nullable: true })
  variation!: number | null;
  @ApiInt({ nullable: true })
  quota!: number | null;
  tag!: string;
  comment!: string;
  /** Guid of the seat the voucher is bound to (it reserves that seat), or null. */
  seat!: string | null;
  @ApiInt({ nullable: true })
  subevent!: number | null;
  show_hidden_items!: boolean;
  all_addons_included!: boolean;
  all_bundles_included!: boolean;
  @ApiMoney({ nullable: true })
  budget!: string | null;
  /** Read-only money string. */
  @ApiMoney()
  budget_used!: string;
  /** Read-only UTC datetime of creation. */
  @ApiDateTime()
  created!: string;
}

/** Entity to wire object, field by field (compat §3.23). */
export function toVoucherJson(voucher: Voucher, seatGuid: string | null = null): VoucherJson {
  return {
    id: voucher.id,
    code: voucher.code,
    max_usages: voucher.maxUsages,
    redeemed: voucher.redeemed,
    min_usages: voucher.minUsages,
    valid_until: isoUtc(voucher.validUntil),
    block_quota: voucher.blockQuota,
    allow_ignore_quota: voucher.allowIgnoreQuota,
    price_mode: voucher.priceMode,
    value: toMoney(voucher.value),
    item: voucher.itemId,
    variation: voucher.variationId,
    quota: voucher.quotaId,
    tag: voucher.tag,
    comment: voucher.comment,
    seat: seatGuid,
    subevent: voucher.subeventId,
    show_hidden_items: voucher.showHiddenItems,
    all_addons_included: voucher.allAddonsIncluded,
    all_bundles_included: voucher.allBundlesIncluded,
    budget: moneyOrNull(voucher.budget),
    budget_used: toMoney(voucher.budgetUsed),
    created: isoUtc(voucher.created),
  };
}
