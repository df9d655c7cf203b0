import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import type {
  SaleItem,
  SalesCatalogueRows,
  SaleTaxRule,
  SaleVariation,
} from '../../catalogue/sales/sales-catalogue.service';
import { subeventListedPrice } from '../../catalogue/sales/sales-catalogue.service';
import { skipsQuota, voucherProblem, SaleVoucher } from '../../catalogue/vouchers/voucher-redemption.rules';
import type { VoucherInUse } from '../../catalogue/vouchers/voucher-redemptions.service';
import { FieldErrors, invalidPk, ValidationFailed } from '../../common/errors';
import { parseDateTime } from '../../common/values/datetime';
import { i18nText } from '../../common/values/i18n';
import { Decimal, toMoney } from '../../common/values/money';
import type { Event } from '../../organizers/event.entity';
import type { ValidatedAnswer } from '../answers/answers.rules';
import type { CreateOrderDto, OrderFeeInputDto, OrderPositionInputDto } from './order.dto';
import type { OrderFee } from '../entities/order-fee.entity';
import {
  budgetMessage,
  generatePositionSecret,
  generatePseudonymizationId,
  hasValidCodeChars,
  numberPositions,
  ticketValidity,
} from './order-rules';
import type { NewPosition, Values } from '../writing/order-writer';
import { SECRET_EXISTS } from '../writing/order-writer';
import type { Order, OrderStatus } from '../entities/order.entity';
import { lineTax, listedPrice, priceAfterVoucher } from './pricing';
import {
  attendeeColumns,
  hasErrors,
  itemProblem,
  nameSentTwice,
  SALES_MESSAGES,
  subeventProblem,
  variationProblem,
} from '../writing/sales.rules';

/**
 * Pure rules of order creation (compat §4.4 "Order creation", pretix `OrderCreateSerializer`): field and
 * cross-field checks of the request, voucher use and budgets, prices, fees, and the stored form of the order.
 * The orchestrator ({@link OrderCreator}) loads what these read and writes what they return. Unit-tested in
 * `order-create.rules.spec.ts`.
 */

import {
  CODE_IN_USE,
  CODE_INVALID_CHARS,
  ORDER_EMPTY,
  SEAT_ON_ADDON,
  VOUCHER_UNKNOWN_CODE,
  VOUCHER_ON_ADDON,
  INVOICE_NAME_TWICE,
  ORDER_VOUCHER_MESSAGES,
} from './order-create.messages';

import { invoiceNameSentTwice } from './invoice-address.rules';
import type { SaleSeat } from '../../seating/seat-sales.service';
import { resolveSeats, SeatRefs } from '../seats/seat.rules';

/** What an order create refers to: the catalogue rows, and the taken secrets and code of the orders. */
export interface CreateReferences {
  catalogue: SalesCatalogueRows;
  takenSecrets: ReadonlySet<string>;
  codeTaken: boolean;
}

/** A position that passed validation, with what the later steps need. */
export interface ResolvedPosition {
  input: OrderPositionInputDto;
  positionid: number;
  /** `positionid` of the parent for an add-on. */
  addonTo: number | null;
  item: SaleItem;
  variation: SaleVariation | null;
  voucher: SaleVoucher | null;
  answers: ValidatedAnswer[];
  /** Price forced by a voucher budget (gross), replacing the computed or sent price. */
  priceOverride?: Decimal;
  /** Date of a series (null for events without dates). */
  subeventId: number | null;
  /** The product's listed price on its date (the date's override, else the item's or variation's price). */
  listed: Decimal;
  /** The seat sold with the position (set by {@link checkSeats}). */
  seat?: SaleSeat | null;
}

/** A position priced and ready to insert, with what its voucher's budget gave. */
export interface PricedPosition extends NewPosition {
  source: ResolvedPosition;
  budgetUse: Decimal | null;
}

const isSet = <T>(v: T | null | undefined): v is T => v !== undefined && v !== null;

/**
 * Step 1: field rules (DRF field validation, then each position's `validate()`, then `validate_positions`),
 * every problem reported together; per-position errors are aligned (`{"positions": [{}, {...}]}`).
 * @throws ValidationFailed
 */
export function resolvePositions(
  event: Pick<Event, 'id' | 'hasSubevents'>,
  body: CreateOrderDto,
  refs: CreateReferences,
  answers: ValidatedAnswer[][],
  answerErrors: (FieldErrors[] | null)[],
): ResolvedPosition[] {
  const { catalogue } = refs;
  const errors: FieldErrors = {};
  if (body.code !== undefined) {
    if (refs.codeTaken) errors.code = [CODE_IN_USE];
    else if (!hasValidCodeChars(body.code)) errors.code = [CODE_INVALID_CHARS];
  }
  if (invoiceNameSentTwice(body.invoice_address)) errors.invoice_address = { name: [INVOICE_NAME_TWICE] };
  const feeErrors: FieldErrors[] = (body.fees ?? []).map((f): FieldErrors =>
    isSet(f.tax_rule) && !catalogue.taxRules.has(f.tax_rule) ? { tax_rule: [invalidPk(f.tax_rule)] } : {},
  );
  if (feeErrors.some(hasErrors)) errors.fees = feeErrors;

  const seenSecrets = new Set<string>();
  const resolved: (ResolvedPosition | null)[] = [];
  const positionErrors: FieldErrors[] = body.positions.map((p, i) => {
    const e: FieldErrors = {};
    const item = catalogue.items.get(p.item);
    const itemError = itemProblem(item, p.item, event.id, catalogue.ofOrganizer);
    if (itemError) e.item = [itemError];
    const variation = isSet(p.variation) ? catalogue.variations.get(p.variation) : undefined;
    if (isSet(p.variation) && (!variation || variation.eventId !== event.id)) {
      e.variation = [invalidPk(p.variation)];
    }
    const subevent = subeventProblem(event, p.subevent ?? null, catalogue.subevents);
    if (subevent) e.subevent = [subevent];
    if (p.secret !== undefined) {
      if (refs.takenSecrets.has(p.secret) || seenSecrets.has(p.secret)) e.secret = [SECRET_EXISTS];
      seenSecrets.add(p.secret);
    }
    let voucher: SaleVoucher | null = null;
    if (typeof p.voucher === 'number') {
      voucher = catalogue.vouchersById.get(p.voucher) ?? null;
      if (!voucher) e.voucher = [invalidPk(p.voucher)];
    } else if (typeof p.voucher === 'string') {
      voucher = catalogue.vouchersByCode.get(p.voucher.toUpperCase()) ?? null;
      if (!voucher) e.voucher = [VOUCHER_UNKNOWN_CODE];
    }
    if (answerErrors[i]) e.answers = answerErrors[i];
    if (hasErrors(e) || !item) {
      resolved.push(null);
      return e;
    }
    // The position's cross-field rules: the first one failing is reported (DRF `validate()`).
    const variationError = variationProblem(item, variation ? variation.itemId : null);
    if (variationError) e.variation = [variationError];
    else if (nameSentTwice(p.attendee_name, p.attendee_name_parts))
      e.attendee_name = [SALES_MESSAGES.nameTwice];
    resolved.push(
      hasErrors(e)
        ? null
        : {
            input: p,
            positionid: 0,
            addonTo: isSet(p.addon_to) ? p.addon_to : null,
            item,
            variation: variation ?? null,
            voucher,
            answers: answers[i],
            subeventId: p.subevent ?? null,
            listed: subeventListedPrice(
              catalogue.subeventPrices,
              p.subevent ?? null,
              item.id,
              variation?.id ?? null,
              listedPrice(item.defaultPrice, variation?.defaultPrice),
            ),
          },
    );
    return e;
  });
  if (positionErrors.some(hasErrors)) {
    errors.positions = positionErrors;
  } else if (body.positions.length === 0) {
    errors.positions = [ORDER_EMPTY];
  } else {
    const numbering = numberPositions(body.positions);
    if (numbering.errors) errors.positions = numbering.errors;
    else numbering.ids.forEach((id, i) => (resolved[i]!.positionid = id));
  }
  if (hasErrors(errors)) throw new ValidationFailed(errors);
  return resolved as ResolvedPosition[];
}

/**
 * Step 2, vouchers (pretix order), on the vouchers as read under their locks: add-ons cannot use one; the voucher must fit the
 * product and not be expired; uses are counted over this request plus live carts holding it (except the carts
 * being consumed) unless `force`; a budget caps the total discount (a computed price is raised to what the
 * budget still covers, a sent price that needs more is refused). Sets `priceOverride` on positions whose price
 * the budget raises; writes errors into `errs` (aligned with the positions).
 */
export function checkVoucherUse(
  resolved: ResolvedPosition[],
  inUse: ReadonlyMap<number, VoucherInUse>,
  catalogue: Pick<SalesCatalogueRows, 'quotaProducts'>,
  now: Date,
  force: boolean,
  errs: FieldErrors[],
): void {
  const used = new Map<number, number>();
  const budgetLeft = new Map<number, Decimal>();
  resolved.forEach((r, i) => {
    const v = r.voucher;
    if (!v) return;
    if (r.addonTo !== null) {
      errs[i].voucher = [VOUCHER_ON_ADDON];
      return;
    }
    const product = { itemId: r.item.id, variationId: r.variation?.id ?? null, subeventId: r.subeventId };
    const count = (used.get(v.id) ?? 0) + 1;
    const problem = voucherProblem(
      v,
      product,
      now,
      inUse.get(v.id)?.inCarts ?? 0,
      count,
      v.quotaId === null ? undefined : catalogue.quotaProducts.get(v.quotaId),
    );
    if (problem !== null && problem !== 'used_up') {
      errs[i].voucher = [ORDER_VOUCHER_MESSAGES[problem]];
      return;
    }
    used.set(v.id, count);
    if (problem === 'used_up' && !force) errs[i].voucher = [ORDER_VOUCHER_MESSAGES.used_up];
    if (v.budget === null) return;
    const listed = r.listed;
    const sent = isSet(r.input.price) ? new Decimal(r.input.price) : null;
    const price = sent ?? priceAfterVoucher(listed, v);
    if (!budgetLeft.has(v.id)) budgetLeft.set(v.id, new Decimal(v.budget).minus(v.budgetUsed));
    const left = budgetLeft.get(v.id)!;
    const discount = Decimal.max(listed.minus(price), 0);
    if (discount.lte(left)) {
      budgetLeft.set(v.id, left.minus(discount));
      return;
    }
    budgetLeft.set(v.id, new Decimal(0));
    if (left.lte(0) || sent !== null) {
      errs[i].voucher = [budgetMessage(toMoney(Decimal.max(left, 0)), toMoney(discount))];
      return;
    }
    r.priceOverride = price.plus(discount.minus(left));
  });
  if (!force) checkMinUsages(resolved, used, errs);
}

/** pretix's refusal of a voucher used fewer times than its `min_usages` still asks for (compat §3.23). */
export const minUsagesMessage = (code: string, number: number): string =>
  `The voucher code "${code}" can only be used if you select at least ${number} matching products.`;

/**
 * `min_usages` (spec "Voucher": minimum redemptions on first use; pretix's checkout rule): a voucher this order
 * uses must be used at least `max(1, min_usages - redeemed)` times in it, else every position using it gets
 * {@link minUsagesMessage} on `voucher`.
 * @param used valid uses per voucher id in this order
 */
function checkMinUsages(
  resolved: ResolvedPosition[],
  used: ReadonlyMap<number, number>,
  errs: FieldErrors[],
): void {
  resolved.forEach((r, i) => {
    const v = r.voucher;
    if (!v || errs[i].voucher) return;
    const needed = Math.max(1, v.minUsages - v.redeemed);
    const count = used.get(v.id) ?? 0;
    if (count > 0 && count < needed) errs[i].voucher = [minUsagesMessage(v.code, needed)];
  });
}

/**
 * Step 2, seats (compat §3.2, §4.4), on the seats as read under their locks ({@link resolveSeats}): an add-on takes
 * no seat; sets `seat` on each position, or the problem on its `seat` field (not beside a voucher error).
 */
export function checkSeats(resolved: ResolvedPosition[], refs: SeatRefs, errs: FieldErrors[]): void {
  const outcomes = resolveSeats(
    resolved.map((r) => ({
      itemId: r.item.id,
      subeventId: r.subeventId,
      guid: r.addonTo === null && isSet(r.input.seat) ? r.input.seat : null,
      voucherSeatId: r.voucher?.seatId ?? null,
    })),
    refs,
  );
  resolved.forEach((r, i) => {
    if (errs[i].voucher) return;
    const outcome = outcomes[i];
    if (r.addonTo !== null && isSet(r.input.seat)) errs[i].seat = [SEAT_ON_ADDON];
    else if ('error' in outcome) errs[i].seat = [outcome.error];
    else r.seat = outcome.seat;
  });
}

/** The products positions draw quota for; positions whose voucher ignores or blocks quota draw on none. */
export function quotaProducts(resolved: ResolvedPosition[]): (Product | null)[] {
  return resolved.map((r) =>
    skipsQuota(r.voucher)
      ? null
      : { itemId: r.item.id, variationId: r.variation?.id ?? null, subeventId: r.subeventId },
  );
}

/** Fees as stored: gross value, tax by the fee's rule of the event (compat §4.4 `fees`). */
export function priceFees(
  fees: readonly OrderFeeInputDto[],
  taxRules: ReadonlyMap<number, SaleTaxRule>,
): Omit<Values<OrderFee>, 'orderId'>[] {
  return fees.map((f) => {
    const rule = isSet(f.tax_rule) ? taxRules.get(f.tax_rule)! : null;
    const { gross, tax, rate } = lineTax(new Decimal(f.value), rule, true);
    return {
      feeType: f.fee_type,
      value: gross.toFixed(2),
      description: f.description ?? '',
      internalType: f.internal_type ?? '',
      taxRate: rate.toFixed(2),
      taxValue: tax.toFixed(2),
      taxRuleId: rule?.id ?? null,
      taxCode: rule?.code ?? null,
      canceled: false,
      canceledWithOrder: false,
    };
  });
}

/**
 * Step 3: prices, taxes, secrets and validity of the positions (compat §4.4): a price sent (or forced by a voucher
 * budget) is gross; otherwise the listed price (0 for an add-on whose parent includes its category's price) after
 * the voucher, with tax added on top when the item's tax rule excludes tax. `voucher_budget_use` is what the
 * voucher took off the listed price.
 * @param includedAddons `baseItem/category` keys of add-on configurations that include the add-on's price
 */
export function pricePositions(
  event: Pick<Event, 'id' | 'timezone'>,
  resolved: ResolvedPosition[],
  taxRules: ReadonlyMap<number, SaleTaxRule>,
  includedAddons: ReadonlySet<string>,
  now: Date,
): PricedPosition[] {
  const parentItem = new Map(resolved.map((r) => [r.positionid, r.item.id]));
  return resolved.map((r) => {
    const p = r.input;
    const parent = r.addonTo === null ? undefined : parentItem.get(r.addonTo);
    const free = parent !== undefined && includedAddons.has(`${parent}/${r.item.categoryId}`);
    const listed = free ? new Decimal(0) : r.listed;
    const rule = r.item.taxRuleId === null ? null : (taxRules.get(r.item.taxRuleId) ?? null);
    const voucherPrice = r.voucher ? priceAfterVoucher(listed, r.voucher) : null;
    const sent = r.priceOverride ?? (isSet(p.price) ? new Decimal(p.price) : null);
    const line = lineTax(sent ?? voucherPrice ?? listed, rule, sent !== null);
    let effective = voucherPrice ?? listed;
    if (sent !== null && voucherPrice !== null) {
      const base = !rule || rule.priceIncludesTax ? sent : sent.minus(line.tax);
      effective = Decimal.max(base, voucherPrice);
    }
    const validity =
      p.valid_from === undefined && p.valid_until === undefined
        ? ticketValidity(r.item, now, event.timezone)
        : {
            validFrom: isSet(p.valid_from) ? parseDateTime(p.valid_from) : null,
            validUntil: isSet(p.valid_until) ? parseDateTime(p.valid_until) : null,
          };
    const budgetUse = r.voucher ? Decimal.max(listed.minus(effective), 0) : null;
    return {
      source: r,
      budgetUse,
      answers: r.answers,
      secretSent: p.secret !== undefined,
      values: {
        eventId: event.id,
        positionid: r.positionid,
        itemId: r.item.id,
        variationId: r.variation?.id ?? null,
        subeventId: r.subeventId,
        price: line.gross.toFixed(2),
        taxRate: line.rate.toFixed(2),
        taxValue: line.tax.toFixed(2),
        taxRuleId: rule?.id ?? null,
        taxCode: rule?.code ?? null,
        ...attendeeColumns(p),
        voucherId: r.voucher?.id ?? null,
        voucherBudgetUse: budgetUse ? budgetUse.toFixed(2) : null,
        addonToId: r.addonTo,
        isBundled: p.is_bundled ?? false,
        secret: p.secret ?? generatePositionSecret(),
        pseudonymizationId: generatePseudonymizationId(),
        seatId: r.seat?.id ?? null,
        liveSeatId: r.seat?.id ?? null,
        canceled: false,
        canceledWithOrder: false,
        validFrom: validity.validFrom,
        validUntil: validity.validUntil,
        discountId: null,
        blocked: null,
      },
    };
  });
}

/** Total of an order: positions plus fees (money). */
export function orderTotal(
  positions: readonly PricedPosition[],
  fees: readonly Pick<OrderFee, 'value'>[],
): Decimal {
  return positions
    .reduce((sum, p) => sum.plus(p.values.price), new Decimal(0))
    .plus(fees.reduce((sum, f) => sum.plus(f.value), new Decimal(0)));
}

/** A free order is paid at once (pretix), whatever status was asked for; otherwise `p` only when asked for. */
export function initialStatus(body: Pick<CreateOrderDto, 'status'>, total: Decimal): OrderStatus {
  return body.status === 'p' || total.isZero() ? 'p' : 'n';
}

/** The order row of a create (everything but the id). */
export function orderValues(
  event: Pick<Event, 'id' | 'organizerId'>,
  body: CreateOrderDto,
  fields: { code: string; status: OrderStatus; total: Decimal; secret: string; expires: Date; now: Date },
): Values<Order> {
  return {
    eventId: event.id,
    organizerId: event.organizerId,
    code: fields.code,
    status: fields.status,
    testmode: body.testmode ?? false,
    secret: fields.secret,
    email: body.email ?? null,
    phone: body.phone ?? null,
    locale: body.locale ?? 'en',
    datetime: fields.now,
    expires: fields.expires,
    total: fields.total.toFixed(2),
    comment: body.comment ?? '',
    customFollowupAt: body.custom_followup_at ?? null,
    checkinAttention: body.checkin_attention ?? false,
    checkinText: body.checkin_text ?? null,
    requireApproval: body.require_approval ?? false,
    validIfPending: body.valid_if_pending ?? false,
    salesChannel: body.sales_channel ?? 'web',
    cancellationDate: null,
    apiMeta: body.api_meta ?? {},
    customer: body.customer ?? null,
    taxRoundingMode: body.tax_rounding_mode ?? 'line',
    pluginData: body.plugin_data ?? {},
    lastModified: fields.now,
  };
}

/** Plain-text order confirmation for the outbox. */
export function confirmationText(
  event: Pick<Event, 'name' | 'currency'>,
  order: Pick<Order, 'code' | 'total' | 'status'>,
  priced: readonly PricedPosition[],
): string {
  const lines = priced.map(
    (p) => `- ${p.values.positionid}. ${i18nText(p.source.item.name)}: ${p.values.price} ${event.currency}`,
  );
  return [
    `Hello,`,
    ``,
    `thank you for your order ${order.code} for ${i18nText(event.name)}.`,
    ``,
    ...lines,
    ``,
    `Total: ${order.total} ${event.currency}`,
    `Status: ${order.status === 'p' ? 'paid' : 'pending'}`,
  ].join('\n');
}
