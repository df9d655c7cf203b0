import { randomString } from '../../common/values/random';
import { DateTime } from 'luxon';
import type { SaleItem } from '../../catalogue/sales/sales-catalogue.service';
import type { FieldErrors } from '../../common/errors';

/**
 * Pure rules of order creation (compat §4.4, pretix `OrderCreateSerializer`): codes and secrets, position
 * numbering, the payment term and the validity of tickets. No database access; unit-tested in
 * `order-rules.spec.ts`.
 */

/** Characters of order codes (no I and O, which read like 1 and 0). */
export const ORDER_CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ1234567890';
/** Length of generated order codes; sent codes may have 5 to 16 characters. */
export const GENERATED_CODE_LENGTH = 5;
/** Days an order stays pending before it expires (pretix `payment_term_days` default). */
export const PAYMENT_TERM_DAYS = 14;
/** Fee types of compat §4.4. */
export const FEE_TYPES = [
  'payment',
  'shipping',
  'service',
  'cancellation',
  'insurance',
  'late',
  'other',
  'giftcard',
] as const;
/** Tax rounding modes of an order (pretix 2025.10 `tax_rounding_mode`, "algorithms-rounding"). */
export const TAX_ROUNDING_MODES = ['line', 'sum_by_net', 'sum_by_net_keep_gross'] as const;

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random order code of {@link GENERATED_CODE_LENGTH} characters of {@link ORDER_CODE_CHARS}. */
export function generateOrderCode(): string {
  return randomString(ORDER_CODE_CHARS, GENERATED_CODE_LENGTH);
}

/** Whether every character of a code is one of {@link ORDER_CODE_CHARS} (case-sensitive, as pretix). */
export function hasValidCodeChars(code: string): boolean {
  return [...code].every((c) => ORDER_CODE_CHARS.includes(c));
}

/** The order's secret (customer links): 16 characters `[a-z0-9]`. */
export function generateOrderSecret(): string {
  return randomString(LOWER_ALNUM, 16);
}

/** A ticket secret: 32 characters `[a-z0-9]`. */
export function generatePositionSecret(): string {
  return randomString(LOWER_ALNUM, 32);
}

/** A position's pseudonymization id: 10 characters `[A-Z0-9]`. */
export function generatePseudonymizationId(): string {
  return randomString(UPPER_ALNUM, 10);
}

export const POSITION_IDS_FOR_ALL = 'If you set position IDs manually, you need to do so for all positions.';
export const POSITION_IDS_CONSECUTIVE = 'Position IDs need to be consecutive.';
export const ADDON_TO_ORDER =
  'If you set addon_to, you need to make sure that the referenced position ID exists and is transmitted directly before its add-ons.';
export const ADDON_TO_NEEDS_IDS =
  'If you set addon_to on any position, you need to specify position IDs manually.';

/** The numbering fields of a position as sent. */
export interface PositionNumbering {
  positionid?: number | null;
  addon_to?: number | null;
}

/**
 * Position numbering of an order create (pretix `validate_positions`): `positionid` is sent for all positions or
 * for none; sent ids must run 1, 2, 3, ...; an add-on (`addon_to` = the parent's positionid) must follow its
 * parent or a sibling add-on directly, and a parent is never itself an add-on; `addon_to` needs sent ids.
 * Without sent ids, positions are numbered 1..n in input order.
 * @returns the position ids to use, or errors aligned with the input (`[{}, {"positionid": [...]}]`)
 */
export function numberPositions(
  positions: readonly PositionNumbering[],
): { ids: number[]; errors: null } | { ids: null; errors: FieldErrors[] } {
  const errors: FieldErrors[] = positions.map(() => ({}));
  const has = (v: number | null | undefined): v is number => v !== undefined && v !== null && v !== 0;
  if (positions.some((p) => has(p.positionid))) {
    if (!positions.every((p) => has(p.positionid))) {
      positions.forEach((p, i) => {
        if (!has(p.positionid)) errors[i].positionid = [POSITION_IDS_FOR_ALL];
      });
      return { ids: null, errors };
    }
    let lastParent: number | null = null;
    let last = 0;
    positions.forEach((p, i) => {
      const id = p.positionid as number;
      if (id !== last + 1) errors[i].positionid = [POSITION_IDS_CONSECUTIVE];
      if (has(p.addon_to) && p.addon_to !== lastParent) errors[i].addon_to = [ADDON_TO_ORDER];
      if (!has(p.addon_to)) lastParent = id;
      last = id;
    });
  } else if (positions.some((p) => has(p.addon_to))) {
    return { ids: null, errors: positions.map(() => ({ positionid: [ADDON_TO_NEEDS_IDS] })) };
  }
  if (errors.some((e) => Object.keys(e).length > 0)) return { ids: null, errors };
  return { ids: positions.map((p, i) => (has(p.positionid) ? p.positionid : i + 1)), errors: null };
}

/**
 * When a new pending order expires (pretix `Order.set_expires` with the default payment term): `days` after
 * `now`, at 23:59:59 in the event's time zone. An unknown zone falls back to UTC.
 */
export function orderExpiry(now: Date, timezone: string, days = PAYMENT_TERM_DAYS): Date {
  let local = DateTime.fromJSDate(now).setZone(timezone);
  if (!local.isValid) local = DateTime.fromJSDate(now).setZone('UTC');
  return local.plus({ days }).set({ hour: 23, minute: 59, second: 59, millisecond: 0 }).toJSDate();
}

/** The validity settings of an item (spec "Item"; compat §3.10 `validity_*`). */
export type ItemValidity = Pick<
  SaleItem,
  | 'validityMode'
  | 'validityFixedFrom'
  | 'validityFixedUntil'
  | 'validityDynamicDurationMinutes'
  | 'validityDynamicDurationHours'
  | 'validityDynamicDurationDays'
  | 'validityDynamicDurationMonths'
>;

/**
 * Validity of a new ticket (pretix `Item.compute_validity`, start = now): `fixed` gives the item's fixed window;
 * `dynamic` starts now and ends after the configured months and days (at 23:59:59 of the last day, in the
 * event's time zone: one day means "until the end of today"), plus hours and minutes; otherwise no limits.
 */
export function ticketValidity(
  item: ItemValidity,
  now: Date,
  timezone: string,
): { validFrom: Date | null; validUntil: Date | null } {
  if (item.validityMode === 'fixed') {
    return { validFrom: item.validityFixedFrom, validUntil: item.validityFixedUntil };
  }
  if (item.validityMode !== 'dynamic') return { validFrom: null, validUntil: null };
  let until = DateTime.fromJSDate(now).setZone(timezone);
  if (!until.isValid) until = DateTime.fromJSDate(now).setZone('UTC');
  const months = item.validityDynamicDurationMonths ?? 0;
  const days = item.validityDynamicDurationDays ?? 0;
  const endOfDay = { hour: 23, minute: 59, second: 59, millisecond: 0 };
  if (months > 0) {
    until = until.plus({ months }).plus({ days }).minus({ days: 1 }).set(endOfDay);
  } else if (days > 0) {
    until = until.plus({ days: days - 1 }).set(endOfDay);
  }
  until = until.plus({
    hours: item.validityDynamicDurationHours ?? 0,
    minutes: item.validityDynamicDurationMinutes ?? 0,
  });
  return { validFrom: now, validUntil: until.toJSDate() };
}

/** pretix's message when a voucher's budget cannot cover a discount (money strings with two decimals). */
export function budgetMessage(remaining: string, discount: string): string {
  return `The voucher has a remaining budget of ${remaining}, therefore a discount of ${discount} can not be given.`;
}
