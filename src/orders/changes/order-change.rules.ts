import type { Product } from '../../catalogue/quotas/quota-lookup.service';
import { productKey } from '../../catalogue/quotas/quota-lookup.service';
import type { FieldErrors } from '../../common/errors';
import { Decimal } from '../../common/values/money';
import { lineTax, TaxRuleLike } from '../create/pricing';
import type { OrderStatus } from '../entities/order.entity';
import type { OrderPosition } from '../entities/order-position.entity';
import { attendeeNameParts } from '../writing/sales.rules';
import type { AttendeeFieldsDto } from './order-change.dto';

/**
 * Pure rules of changing an order (compat §4.4 "Changing order contents"; pretix `OrderChangeManager` and the
 * API's `OrderChangeOperationSerializer`): pretix's messages, duplicate entries, the quota difference a change
 * makes, taxes of changed lines, and the order's status after its total moved. Unit-tested in
 * `order-change.rules.spec.ts`.
 */

/** pretix's texts (`OrderChangeManager.error_messages` and the change serializers). */
export const CHANGE_MESSAGES = {
  twice: 'You have specified the same object twice.',
  productWithoutVariation: 'You need to select a variation of the product.',
  quota: (name: string) => `The quota ${name} does not have enough capacity left to perform the operation.`,
  quotaMissing: 'There is no quota defined that allows this operation.',
  productInvalid: 'The selected product is not active or has no price set.',
  completeCancel: 'This operation would leave the order empty. Please cancel the order itself instead.',
  addonToRequired: 'This is an add-on product, please select the base position it should be added to.',
  addonInvalid: 'The selected base position does not allow you to add this product as an add-on.',
  addonToUnknown: 'addon_to refers to an unknown position ID for this order.',
  subeventRequired: 'You need to choose a subevent for the new position.',
  seatUnavailable: (name: string) => `The selected seat "${name}" is not available.`,
  seatInvalid: 'The selected seat does not exist.',
  seatSubeventMismatch: (name: string) =>
    `You selected seat "${name}" for a date that does not match the selected ticket date. Please choose a seat again.`,
  seatRequired: 'The selected product requires you to select a seat.',
  seatForbidden: 'The selected product does not allow to select a seat.',
  secretExists: 'You cannot assign a position secret that already exists.',
  canceledAndPatched: 'You cannot change a position that you cancel in the same request.',
  canceledAndSplit: 'You cannot split a position that you cancel in the same request.',
  feeCanceledAndPatched: 'You cannot change a fee that you cancel in the same request.',
  nameTwice: 'Do not specify attendee_name if you specified attendee_name_parts.',
} as const;

/**
 * `{"<part>": ["You have specified the same object twice."]}` for the first list part naming an object twice
 * (pretix checks `patch_positions`, `cancel_positions`, `split_positions`, `patch_fees`, `cancel_fees` in this order).
 */
export function duplicateProblem(parts: readonly [string, readonly number[]][]): FieldErrors | null {
  for (const [part, ids] of parts) {
    if (new Set(ids).size !== ids.length) return { [part]: [CHANGE_MESSAGES.twice] };
  }
  return null;
}

/**
 * Places a change needs per quota: +1 on every quota of each product taken (a new position, or a position's new
 * product), −1 on every quota of each product given up (a canceled position, or a position's old product). Only
 * quotas with a positive difference are reserved (pretix `_quotadiff`): a swap within one quota needs none.
 * @param quotasOf quota ids per {@link productKey}
 */
export function quotaDifference(
  taken: readonly Product[],
  released: readonly Product[],
  quotasOf: ReadonlyMap<string, readonly number[]>,
): Map<number, number> {
  const diff = new Map<number, number>();
  const add = (p: Product, n: number) => {
    for (const q of quotasOf.get(productKey(p)) ?? []) diff.set(q, (diff.get(q) ?? 0) + n);
  };
  taken.forEach((p) => add(p, 1));
  released.forEach((p) => add(p, -1));
  for (const [q, n] of diff) if (n <= 0) diff.delete(q);
  return diff;
}

/** A line's gross price, tax value and rate, the gross price kept (pretix `tax(..., base_price_is='gross')`). */
export function grossLine(
  price: Decimal,
  rule: TaxRuleLike | null,
): { gross: Decimal; tax: Decimal; rate: Decimal } {
  return lineTax(price, rule, true);
}

/**
 * `recalculate_taxes` of one line (pretix `OrderChangeManager.recalculate_taxes`): with the rule's current rate,
 * either the gross price stays (`keep_gross`) or the net price does and the gross moves (`keep_net`). Null when
 * nothing changes: no rule, a free line, or the same rate.
 */
export function recalculatedLine(
  line: { price: string; taxValue: string; taxRate: string },
  rule: TaxRuleLike | null,
  keep: 'keep_net' | 'keep_gross',
): { gross: Decimal; tax: Decimal; rate: Decimal } | null {
  if (!rule || new Decimal(line.price).isZero()) return null;
  if (new Decimal(rule.rate).eq(line.taxRate)) return null;
  if (keep === 'keep_gross') return lineTax(new Decimal(line.price), rule, true);
  const net = new Decimal(line.price).minus(line.taxValue);
  return lineTax(net, { ...rule, priceIncludesTax: false }, false);
}

/**
 * The order's status after its total changed (pretix `_check_paid_price_change`): a paid order whose total grows
 * beyond what was paid becomes pending again (with a new payment term); a pending or expired order whose total
 * shrinks to what was paid becomes paid (unless it awaits approval). Otherwise unchanged.
 * @param credit confirmed payments minus refunds (money)
 */
export function statusAfterChange(
  status: OrderStatus,
  oldTotal: Decimal,
  newTotal: Decimal,
  credit: Decimal,
  requireApproval: boolean,
): { status: OrderStatus; newTerm: boolean } {
  const diff = newTotal.minus(oldTotal);
  if (status === 'p' && diff.gt(0) && newTotal.gt(credit)) return { status: 'n', newTerm: true };
  if ((status === 'n' || status === 'e') && diff.lt(0) && newTotal.lte(credit) && !requireApproval) {
    return { status: 'p', newTerm: false };
  }
  return { status, newTerm: false };
}

/** Whether an order status holds quota and seats (pending and paid orders do; pretix checks quotas only then). */
export function holdsPlaces(status: OrderStatus): boolean {
  return status === 'n' || status === 'p';
}

/** The pretix mail text of a changed order (`mail_text_order_changed`, plain text). */
export function orderChangedMail(eventName: string, code: string): { subject: string; body: string } {
  return {
    subject: `Your order has been changed: ${code}`,
    body:
      [
        'Hello,',
        `your order for ${eventName} has been changed.`,
        `Your order code: ${code}`,
        'Best regards,',
        `Your ${eventName} team`,
      ].join('\n\n') + '\n',
  };
}

/** The attendee columns a patch body changes. */
export function attendeeChanges(before: OrderPosition, body: AttendeeFieldsDto): Partial<OrderPosition> {
  const out: Partial<OrderPosition> = {};
  if (body.attendee_name !== undefined || body.attendee_name_parts !== undefined) {
    out.attendeeNameParts = attendeeNameParts(body.attendee_name, body.attendee_name_parts);
  }
  const plain = [
    ['attendee_email', 'attendeeEmail'],
    ['company', 'company'],
    ['street', 'street'],
    ['zipcode', 'zipcode'],
    ['city', 'city'],
    ['state', 'state'],
  ] as const;
  for (const [wire, prop] of plain) {
    if (body[wire] !== undefined && body[wire] !== before[prop]) out[prop] = body[wire] ?? null;
  }
  if (body.country !== undefined)
    out.country = body.country ? body.country.toUpperCase() : null;
  return out;
}
