import type { ErrorCollector } from '../../common/errors';
import { invalidPk } from '../../common/errors';
import type { Complete } from '../../common/persistence/write';
import { parseDateTimeOrNull } from '../../common/values/datetime';
import { moneyOrNull, toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import type { SalesCatalogueRows } from '../sales/sales-catalogue.service';
import type { CreateVoucherDto } from './voucher.dto';
import type { Voucher } from './voucher.entity';
import type { VoucherJson } from './voucher.presenter';
import type { BlockingState, VoucherTarget } from './voucher-rules';
import { SUBEVENT_OF_OTHER_EVENT } from '../../organizers/subevents/subevent-scope';

/**
 * Pure rules of a voucher write's input (compat §3.23): defaults, the field and cross-field checks on the merged
 * input, and how the input lands on the row. Unit-tested in `voucher-input.rules.spec.ts`.
 */

/** The merged input a write applies: every writable field, `code` generated when it was not sent. */
export type VoucherInput = Complete<CreateVoucherDto>;

/** Defaults of optional voucher fields (compat §3.23); PUT resets omitted ones to these (`code` excepted). */
export const VOUCHER_DEFAULTS: Omit<VoucherInput, 'code'> = {
  max_usages: 1,
  min_usages: 1,
  valid_until: null,
  block_quota: false,
  allow_ignore_quota: false,
  price_mode: 'none',
  value: '0.00',
  item: null,
  variation: null,
  quota: null,
  seat: null,
  tag: '',
  comment: '',
  subevent: null,
  show_hidden_items: true,
  all_addons_included: false,
  all_bundles_included: false,
  budget: null,
};

const NEEDS_TARGET = 'You need to select a specific product or quota if this voucher should reserve tickets.';
const NEEDS_DATE = 'If you want this voucher to block quota, you need to select a specific date.';
const VARIATION_WITHOUT_ITEM =
  'You cannot select a variation without having selected a product that provides variations.';

/**
 * Field references and cross-field rules of compat §3.23 on the merged input (everything but code uniqueness
 * and free quota). `subevent` must be a date of the event (a series); the seat is checked by
 * `VoucherSeatBinding`.
 * @param redeemed the stored redemption count (0 on creation)
 */
export function checkVoucherInput(
  event: Event,
  input: VoucherInput,
  refs: SalesCatalogueRows,
  redeemed: number,
  errors: ErrorCollector,
): void {
  // References resolve within the event: another event's item or variation is an unknown id.
  const item = input.item === null ? null : ofEvent(refs.items.get(input.item), event.id);
  const variation = input.variation === null ? null : ofEvent(refs.variations.get(input.variation), event.id);
  if (input.item !== null && !item) errors.add('item', invalidPk(input.item));
  if (input.variation !== null && !variation) errors.add('variation', invalidPk(input.variation));
  if (input.quota !== null && !refs.quotas.has(input.quota)) errors.add('quota', invalidPk(input.quota));
  if (input.subevent !== null) {
    const date = refs.subevents.get(input.subevent);
    if (!date) errors.add('subevent', invalidPk(input.subevent));
    else if (!event.hasSubevents || date.eventId !== event.id)
      errors.add('subevent', SUBEVENT_OF_OTHER_EVENT);
  }

  if (input.item !== null && input.quota !== null) {
    errors.addNonField('You cannot select a quota and a specific product at the same time.');
  }
  if (variation && input.item === null) {
    errors.add('variation', VARIATION_WITHOUT_ITEM);
  } else if (variation && item && variation.itemId !== input.item) {
    errors.add('variation', 'This variation does not belong to this product.');
  }
  if (item?.isAddon) {
    errors.add('item', 'It is currently not possible to create vouchers for add-on products.');
  }
  if (item?.hasVariations && input.variation === null) {
    if (input.block_quota) {
      errors.add(
        'variation',
        'You can only block quota if you specify a specific product variation. Otherwise it might be unclear which quotas to block.',
      );
    } else if (input.allow_ignore_quota) {
      errors.add(
        'variation',
        'You can only use a voucher to ignore the quota of a product with variations if you select a specific variation.',
      );
    }
  }
  if (input.block_quota && input.item === null && input.quota === null) {
    errors.add('block_quota', NEEDS_TARGET);
  }
  if (input.block_quota && event.hasSubevents && input.subevent === null) {
    errors.add('subevent', NEEDS_DATE);
  }
  if (input.max_usages < redeemed) {
    errors.add(
      'max_usages',
      `This voucher has already been redeemed ${redeemed} times. You cannot reduce the maximum number of usages below this number.`,
    );
  }
  if (input.min_usages > input.max_usages) {
    errors.add(
      'min_usages',
      'The minimum number of usages may not be higher than the maximum number of usages.',
    );
  }
}

/** Writes the merged input onto the entity (`redeemed` and `budget_used` are never written here). */
export function applyVoucherInput(voucher: Voucher, input: VoucherInput, seatId: number | null = null): void {
  voucher.code = input.code;
  voucher.maxUsages = input.max_usages;
  voucher.minUsages = input.min_usages;
  voucher.validUntil = parseDateTimeOrNull(input.valid_until);
  voucher.blockQuota = input.block_quota;
  voucher.allowIgnoreQuota = input.allow_ignore_quota;
  voucher.priceMode = input.price_mode;
  voucher.value = toMoney(input.value);
  voucher.itemId = input.item;
  voucher.variationId = input.variation;
  voucher.quotaId = input.quota;
  voucher.seatId = seatId;
  voucher.tag = input.tag;
  voucher.comment = input.comment;
  voucher.subeventId = input.subevent;
  voucher.showHiddenItems = input.show_hidden_items;
  voucher.allAddonsIncluded = input.all_addons_included;
  voucher.allBundlesIncluded = input.all_bundles_included;
  voucher.budget = moneyOrNull(input.budget);
}

/** The row when it belongs to the event, else undefined. */
function ofEvent<T extends { eventId: number }>(row: T | undefined, eventId: number): T | undefined {
  return row && row.eventId === eventId ? row : undefined;
}

/** The fields that decide whether and where a voucher blocks quota. */
export function stateOf(voucher: Voucher): BlockingState & VoucherTarget {
  return {
    blockQuota: voucher.blockQuota,
    validUntil: voucher.validUntil,
    maxUsages: voucher.maxUsages,
    redeemed: voucher.redeemed,
    itemId: voucher.itemId,
    variationId: voucher.variationId,
    quotaId: voucher.quotaId,
    subeventId: voucher.subeventId,
  };
}

/** The writable fields of a wire voucher (the PATCH base). */
export function inputOf(json: VoucherJson): VoucherInput {
  const { id: _id, redeemed: _r, budget_used: _b, created: _c, ...input } = json;
  return input;
}
