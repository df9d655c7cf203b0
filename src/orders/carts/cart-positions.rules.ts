import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import { productKey } from '../../catalogue/quotas/quota-lookup.service';
import { noQuotaMessage } from '../../catalogue/quotas/quota-reservations.service';
import {
  notOnThisDateMessage,
  SalesCatalogueRows,
  subeventProductAvailable,
} from '../../catalogue/sales/sales-catalogue.service';
import {
  SaleVoucher,
  skipsQuota,
  voucherProblem,
  VoucherProblem,
} from '../../catalogue/vouchers/voucher-redemption.rules';
import type { VoucherInUse } from '../../catalogue/vouchers/voucher-redemptions.service';
import { FieldErrors, invalidPk } from '../../common/errors';
import { toFieldErrors } from '../../common/validation/validation.pipe';
import { parseDateTime } from '../../common/values/datetime';
import { i18nText } from '../../common/values/i18n';
import { toMoney } from '../../common/values/money';
import { randomString } from '../../common/values/random';
import type { Event } from '../../organizers/event.entity';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { API_CART_SUFFIX, CreateCartPositionDto, jsonTypeName } from './cart-position.dto';
import type { CartPosition } from './cart-position.entity';
import type { Values } from '../writing/order-writer';
import {
  attendeeNameParts,
  itemProblem,
  nameSentTwice,
  SALES_MESSAGES,
  subeventProblem,
  variationProblem,
} from '../writing/sales.rules';

/**
 * Pure rules of cart positions through the API (compat §3.2, pretix's experimental cart endpoint): cart ids,
 * checking an entry against the catalogue, voucher use under the lock, and handing out places in input order.
 * Unit-tested in `cart-positions.rules.spec.ts`.
 */

/** How long a cart position blocks quota when `expires` is not sent (pretix's `reservation_time` default). */
export const DEFAULT_RESERVATION_MINUTES = 30;
/** Length of the random part of a generated cart id (pretix: `get_random_string(48)`). */
export const CART_ID_RANDOM_LENGTH = 48;
const CART_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A referenced row deleted between the checks and the insert (foreign-key violation). */
export const DELETED_MEANWHILE =
  'A product, variation, voucher or question of this request was deleted meanwhile. Please try again.';

/** Voucher messages of cart positions (compat §3.2). */
export const CART_VOUCHER_MESSAGES: Record<VoucherProblem, string> = {
  invalid_item: 'The specified voucher is not valid for the given item and variation.',
  invalid_subevent: 'The specified voucher is not valid for this subevent.',
  expired: 'The specified voucher is expired.',
  used_up: 'The specified voucher has already been used the maximum number of times.',
};

/** A random cart id `<48 letters and digits>@api` (compat §3.2), one per request. */
export function generateCartId(): string {
  return `${randomString(CART_ID_ALPHABET, CART_ID_RANDOM_LENGTH)}${API_CART_SUFFIX}`;
}

/** A validated entry, ready to reserve and insert. */
export interface CartDraft {
  input: CreateCartPositionDto;
  product: Product;
  voucher: SaleVoucher | null;
  /** Quotas the position draws on; empty when its voucher ignores or blocks quota. */
  quotaIds: number[];
  answers: ValidatedAnswer[];
  nameParts: Record<string, string>;
  /** The seat reserved (set under the seat locks by the service; null for an unseated product). */
  seat?: SaleSeat | null;
}

/** An entry's outcome of validation. */
import type { SaleSeat } from '../../seating/seat-sales.service';

export type Prepared = { draft: CartDraft } | { errors: FieldErrors };

/**
 * Checks one entry (field types already checked by the DTO): field errors together (item, variation, sub-event,
 * answers), then only the first cross-field problem (variation, name, seat, voucher), as pretix does. The quotas
 * are assigned afterwards by {@link assignQuotas}.
 */
export function checkEntry(
  event: Pick<Event, 'id' | 'hasSubevents'>,
  input: CreateCartPositionDto,
  refs: SalesCatalogueRows,
  answers: { answers: ValidatedAnswer[]; errors: FieldErrors[] | null },
  now: Date,
): Prepared {
  const fields: Record<string, string[] | FieldErrors[]> = {};
  const item = refs.items.get(input.item);
  const itemError = itemProblem(item, input.item, event.id, refs.ofOrganizer);
  if (itemError) fields.item = [itemError];
  const variationId = input.variation ?? null;
  const variation = variationId === null ? null : refs.variations.get(variationId);
  if (variationId !== null && (!variation || !refs.ofOrganizer(variation.eventId))) {
    fields.variation = [invalidPk(variationId)];
  }
  const subevent = subeventProblem(event, input.subevent ?? null, refs.subevents);
  if (subevent) fields.subevent = [subevent];
  if (answers.errors) fields.answers = answers.errors;
  if (Object.keys(fields).length > 0 || !item) return { errors: fields };

  const fail = (field: string, message: string): Prepared => ({ errors: { [field]: [message] } });
  const variationError = variationProblem(item, variation ? variation.itemId : null);
  if (variationError) return fail('non_field_errors', variationError);
  if (nameSentTwice(input.attendee_name, input.attendee_name_parts)) {
    return fail('attendee_name', SALES_MESSAGES.nameTwice);
  }
  const product: Product = { itemId: item.id, variationId, subeventId: input.subevent ?? null };
  let voucher: SaleVoucher | null = null;
  if (input.voucher) {
    voucher = refs.vouchersByCode.get(input.voucher.toUpperCase()) ?? null;
    if (!voucher) return fail('voucher', SALES_MESSAGES.voucherUnknown);
    const problem = voucherProblem(
      voucher,
      product,
      now,
      0,
      0,
      voucher.quotaId === null ? undefined : refs.quotaProducts.get(voucher.quotaId),
    );
    if (problem) return fail('voucher', CART_VOUCHER_MESSAGES[problem]);
  }
  // Not in pretix's cart API, which takes its order rule here (compat §3.17): a product disabled on the date or
  // outside its window there is refused unless a quota-skipping voucher is used.
  if (
    !skipsQuota(voucher) &&
    !subeventProductAvailable(refs.subeventAvailability, product.subeventId, item.id, variationId, now)
  ) {
    return fail('item', notOnThisDateMessage(i18nText(item.name)));
  }
  return {
    draft: {
      input,
      product,
      voucher,
      quotaIds: [],
      answers: answers.answers,
      nameParts: attendeeNameParts(input.attendee_name, input.attendee_name_parts),
    },
  };
}

/** The products the drafts draw quota for (none for a voucher that ignores or blocks quota). */
export function quotaDrawingProducts(prepared: readonly Prepared[]): Product[] {
  return prepared.flatMap((p) => ('draft' in p && !skipsQuota(p.draft.voucher) ? [p.draft.product] : []));
}

/**
 * Gives each draft the quotas of its product; a draft drawing on no quota becomes pretix's "not assigned to a
 * quota" error (`non_field_errors`).
 * @param byProduct quota ids per product key (QuotaLookup.forProducts)
 */
export function assignQuotas(
  prepared: readonly Prepared[],
  byProduct: ReadonlyMap<string, number[]>,
  itemNames: (itemId: number) => string,
): Prepared[] {
  return prepared.map((p) => {
    if (!('draft' in p) || skipsQuota(p.draft.voucher)) return p;
    const quotaIds = byProduct.get(productKey(p.draft.product)) ?? [];
    if (quotaIds.length === 0) {
      return { errors: { non_field_errors: [noQuotaMessage(itemNames(p.draft.product.itemId))] } };
    }
    return { draft: { ...p.draft, quotaIds } };
  });
}

/** Item names for messages, from the catalogue rows. */
export function itemNameOf(refs: SalesCatalogueRows): (itemId: number) => string {
  return (itemId) => i18nText(refs.items.get(itemId)?.name);
}

/** Uses of vouchers within one request, beside the live carts holding them (counted under the lock). */
export type VoucherTally = Map<number, VoucherInUse & { usedInRequest: number }>;

/**
 * The voucher check under the lock: one more use of the draft's voucher must fit `max_usages` beside its
 * redemptions, live carts and earlier entries of this request; the use is counted when it fits.
 * @returns the message for `{"voucher": [...]}`, or null
 */
export function takeVoucherUse(draft: CartDraft, tally: VoucherTally, now: Date): string | null {
  if (!draft.voucher) return null;
  const state = tally.get(draft.voucher.id);
  if (!state) return SALES_MESSAGES.voucherUnknown;
  // The product rules were checked before the lock; here only expiry and usage count.
  const problem = voucherProblem(
    { ...state.voucher, itemId: null, variationId: null, quotaId: null },
    draft.product,
    now,
    state.inCarts,
    state.usedInRequest + 1,
  );
  if (problem) return CART_VOUCHER_MESSAGES[problem];
  state.usedInRequest += 1;
  return null;
}

/** One entry's claim on quotas. */
export interface QuotaClaim {
  quotaIds: readonly number[];
}

/** Why an entry was refused while allocating: a quota without a free place, or the further check's answer. */
export type Allocation<T> = { quotaId: number } | { refused: T } | null;

/**
 * Hands out free places to entries in input order (pretix's bulk create): an entry fits when each of its quotas
 * (in id order) still has a place (`null` = unlimited; closed or sold-out quotas have 0) and `check` accepts it
 * (voucher usage); then its places are taken. Later entries get what is left.
 * @param left free places per quota id; updated in place
 * @returns per entry null (fits), the first quota lacking a place, or the check's refusal
 */
export function allocateQuotas<T>(
  claims: readonly (QuotaClaim | null)[],
  left: Map<number, number | null>,
  check: (index: number) => T | null,
): (Allocation<T> | undefined)[] {
  return claims.map((claim, index) => {
    if (!claim) return undefined;
    const ids = [...new Set(claim.quotaIds)].sort((a, b) => a - b);
    const lacking = ids.find((id) => {
      const free = left.get(id);
      return free !== null && (free === undefined || free < 1);
    });
    if (lacking !== undefined) return { quotaId: lacking };
    const refused = check(index);
    if (refused !== null) return { refused };
    for (const id of ids) {
      const free = left.get(id);
      if (free !== null && free !== undefined) left.set(id, free - 1);
    }
    return null;
  });
}

/** The stored row of a draft: the price as sent, `expires` as sent or {@link DEFAULT_RESERVATION_MINUTES} on. */
export function cartPositionValues(
  draft: CartDraft,
  eventId: number,
  generatedCartId: string,
  now: Date,
): Values<CartPosition> {
  const d = draft.input;
  return {
    eventId,
    cartId: d.cart_id ? d.cart_id : generatedCartId,
    datetime: now,
    expires: d.expires
      ? parseDateTime(d.expires)
      : new Date(now.getTime() + DEFAULT_RESERVATION_MINUTES * 60_000),
    itemId: draft.product.itemId,
    variationId: draft.product.variationId,
    price: toMoney(d.price),
    attendeeNameParts: draft.nameParts,
    attendeeEmail: d.attendee_email ? d.attendee_email : null,
    voucherId: draft.voucher?.id ?? null,
    addonToId: null,
    subeventId: draft.product.subeventId,
    includesTax: d.includes_tax ?? true,
    seatId: draft.seat?.id ?? null,
    isBundled: false,
    salesChannel: d.sales_channel ?? 'web',
  };
}

/**
 * Validates one entry of a bulk body like the body of a single create (class-validator, DRF messages).
 * @returns the DTO, or the entry's field errors (`{"non_field_errors": [...]}` when it is not an object)
 */
export async function parseEntry(raw: unknown): Promise<CreateCartPositionDto | FieldErrors> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    const got = raw === null ? 'null' : jsonTypeName(raw);
    return { non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`] };
  }
  const dto = plainToInstance(CreateCartPositionDto, raw);
  const problems = await validate(dto, {
    whitelist: true,
    forbidNonWhitelisted: false,
    stopAtFirstError: true,
    validationError: { target: false, value: true },
  });
  return problems.length > 0 ? toFieldErrors(problems) : dto;
}
