import { SubEventRef, subeventProblem as subeventRule } from '../../organizers/subevents/subevent-scope';
import { invalidPk } from '../../common/errors';
import type { FieldErrors } from '../../common/errors';
import { ValidationFailed } from '../../common/errors';

/**
 * Rules shared by order creation and cart positions (compat §3.2, §4.4; pretix's order and cart serializers):
 * the product rules, attendee names, and how places add up per quota. Pure; unit-tested in `sales.rules.spec.ts`.
 */

/** pretix's texts of the product and attendee rules, the same for orders and cart positions. */
export const SALES_MESSAGES = {
  itemOtherEvent: 'The specified item does not belong to this event.',
  itemInactive: 'The specified item is not active.',
  subeventRequired: 'You need to set a subevent.',
  subeventNotAllowed: 'You cannot set a subevent for this event.',
  variationRequired: 'You should specify a variation for this item.',
  variationOtherItem: 'The specified variation does not belong to the specified item.',
  variationNotAllowed: 'You cannot specify a variation for this item.',
  nameTwice: 'Do not specify attendee_name if you specified attendee_name_parts.',
  seatUnknown: 'The specified seat does not exist.',
  voucherUnknown: 'The specified voucher does not exist.',
} as const;

/** The item field rule: unknown or another organizer's item is an unknown id, then other event, then inactive. */
export function itemProblem(
  item: { id: number; eventId: number; active: boolean } | undefined,
  requested: number,
  eventId: number,
  ofOrganizer: (eventId: number) => boolean,
): string | null {
  if (!item || !ofOrganizer(item.eventId)) return invalidPk(requested);
  if (item.eventId !== eventId) return SALES_MESSAGES.itemOtherEvent;
  if (!item.active) return SALES_MESSAGES.itemInactive;
  return null;
}

/**
 * The variation rule (pretix's position `validate()`): an item with variations needs one of its own, an item
 * without variations takes none.
 * @param variationItemId the item of the sent variation, or null when none was sent
 */
export function variationProblem(
  item: { id: number; hasVariations: boolean },
  variationItemId: number | null,
): string | null {
  if (item.hasVariations) {
    if (variationItemId === null) return SALES_MESSAGES.variationRequired;
    if (variationItemId !== item.id) return SALES_MESSAGES.variationOtherItem;
    return null;
  }
  return variationItemId === null ? null : SALES_MESSAGES.variationNotAllowed;
}

/**
 * The sub-event rule of carts and orders (compat §3.2): series need a date of their own, other events take none.
 * @param found the dates sent, by id (SalesCatalogueRows.subevents)
 */
export function subeventProblem(
  event: { id: number; hasSubevents: boolean },
  subevent: number | null,
  found: ReadonlyMap<number, SubEventRef>,
): string | null {
  return subeventRule(event, subevent, found, {
    required: SALES_MESSAGES.subeventRequired,
    notAllowed: SALES_MESSAGES.subeventNotAllowed,
    unknown: invalidPk,
  });
}

/** Both `attendee_name` and non-empty `attendee_name_parts` sent. */
export function nameSentTwice(
  name: string | null | undefined,
  parts: Record<string, string> | null | undefined,
) {
  return !!name && !!parts && Object.keys(parts).length > 0;
}

/** The stored name parts: the parts sent, else `{"_legacy": name}`, else `{}`. */
export function attendeeNameParts(
  name: string | null | undefined,
  parts: Record<string, string> | null | undefined,
): Record<string, string> {
  if (parts && Object.keys(parts).length > 0) return parts;
  return name ? { _legacy: name } : {};
}

/** The attendee fields of a position as sent (wire names; each optional and nullable). */
export interface AttendeeInput {
  attendee_name?: string | null;
  attendee_name_parts?: Record<string, string> | null;
  attendee_email?: string | null;
  company?: string | null;
  street?: string | null;
  zipcode?: string | null;
  city?: string | null;
  country?: string | null;
  state?: string | null;
}

/**
 * The stored attendee columns of a new position from the fields sent: name parts as {@link attendeeNameParts},
 * the country upper-cased, anything not sent null.
 */
export function attendeeColumns(p: AttendeeInput) {
  return {
    attendeeNameParts: attendeeNameParts(p.attendee_name, p.attendee_name_parts),
    attendeeEmail: p.attendee_email ?? null,
    company: p.company ?? null,
    street: p.street ?? null,
    zipcode: p.zipcode ?? null,
    city: p.city ?? null,
    country: p.country ? p.country.toUpperCase() : (p.country ?? null),
    state: p.state ?? null,
  };
}

/** Places needed per quota: one on every quota each entry draws on. */
export function placesPerQuota(drawsOn: readonly (readonly number[])[]): Map<number, number> {
  const needed = new Map<number, number>();
  for (const ids of drawsOn) for (const id of ids) needed.set(id, (needed.get(id) ?? 0) + 1);
  return needed;
}

/** Whether a field-error object has any error. */
export function hasErrors(e: FieldErrors): boolean {
  return Object.keys(e).length > 0;
}

/** Throws `{"positions": errs}` (aligned with the input) when any position has an error. */
export function throwPositions(errs: FieldErrors[]): void {
  if (errs.some(hasErrors)) throw new ValidationFailed({ positions: errs });
}

/** An add-on as the add-on rules see it: its product, the product's category and names for messages. */
export interface AddonChoice {
  itemId: number;
  variationId: number | null;
  categoryId: number | null;
  name: string;
}

/** An add-on configuration of the parent product (catalogue `SaleAddonConfig`), category name resolved. */
export interface AddonRule {
  categoryId: number;
  categoryName: string;
  minCount: number;
  maxCount: number;
  multiAllowed: boolean;
}

/** pretix's texts of the add-on rules (cart serializer; web shop `error_messages` for the counts). */
export const ADDON_MESSAGES = {
  notAnAddon: (addon: string, parent: string) =>
    `The product "${addon}" can not be used as an add-on product for "${parent}".`,
  maxCount: (max: number, category: string, parent: string) =>
    `You can select at most ${max} add-ons from the category ${category} for the product ${parent}.`,
  minCount: (min: number, category: string, parent: string) =>
    `You need to select at least ${min} add-ons from the category ${category} for the product ${parent}.`,
  noMulti: (category: string, parent: string) =>
    `You can select every add-ons from the category ${category} for the product ${parent} at most once.`,
} as const;

/**
 * The add-on rules of one parent product (pretix's add-on validation of cart positions; compat §3.12): every
 * add-on's product must be in a category the parent has an add-on configuration for; per configured category at
 * most `max_count` add-ons, at least `min_count`, and one product at most once unless `multi_allowed`.
 * @returns the first problem's message, or null
 */
export function addonProblem(
  parentName: string,
  addons: readonly AddonChoice[],
  rules: readonly AddonRule[],
): string | null {
  for (const a of addons) {
    if (!rules.some((r) => r.categoryId === a.categoryId)) return ADDON_MESSAGES.notAnAddon(a.name, parentName);
  }
  for (const r of rules) {
    const chosen = addons.filter((a) => a.categoryId === r.categoryId);
    if (chosen.length > r.maxCount) return ADDON_MESSAGES.maxCount(r.maxCount, r.categoryName, parentName);
    if (chosen.length < r.minCount) return ADDON_MESSAGES.minCount(r.minCount, r.categoryName, parentName);
    const products = chosen.map((a) => `${a.itemId}/${a.variationId ?? ''}`);
    if (!r.multiAllowed && new Set(products).size < products.length) {
      return ADDON_MESSAGES.noMulti(r.categoryName, parentName);
    }
  }
  return null;
}
