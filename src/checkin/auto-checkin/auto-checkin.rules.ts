import { GIFT_CARD_PROVIDER } from '../../orders/giftcard-payments/gift-card-payment.rules';
import { PAYMENT_PROVIDERS } from '../../orders/payments/order-payments.rules';

/**
 * Pure rules of automatic check-in (pretix 2025+ plugin `autocheckin`, `perform_auto_checkin`): which rules apply
 * to an order's placement or payment, and which (position, list) pairs they check in. No database.
 */

/** `placed`: when the order is placed; `paid`: when it is paid. */
export const AUTO_CHECKIN_MODES = ['placed', 'paid'] as const;
export type AutoCheckinMode = (typeof AUTO_CHECKIN_MODES)[number];

/** The payment providers a rule may name (`limit_payment_methods`): the event's providers, gift cards included. */
export const AUTO_CHECKIN_PAYMENT_METHODS: readonly string[] = [
  ...PAYMENT_PROVIDERS,
  GIFT_CARD_PROVIDER,
].sort();

/** pretix's refusal of a placed-mode rule limited to payment methods (a placed order has paid nothing yet). */
export const PLACED_NEEDS_ALL_PAYMENT_METHODS = 'all_payment_methods should be used for mode=placed';

/** A rule as the matching needs it. */
export interface RuleForMatch {
  id: number;
  listId: number | null;
  mode: string;
  allSalesChannels: boolean;
  limitSalesChannels: string[];
  allProducts: boolean;
  itemIds: number[];
  variationIds: number[];
  allPaymentMethods: boolean;
  limitPaymentMethods: string[];
}

/** A position of the order (not canceled). */
export interface PositionForMatch {
  id: number;
  positionid: number;
  itemId: number;
  variationId: number | null;
  subeventId: number | null;
}

/** A check-in list as the matching needs it. */
export interface ListForMatch {
  id: number;
  allProducts: boolean;
  itemIds: number[];
  subeventId: number | null;
}

/** One automatic check-in to make. */
export interface AutoCheckinPair {
  positionId: number;
  listId: number;
}

/**
 * The modes whose rules an order transition runs (pretix's `order_placed` and `order_paid` signals): placement
 * runs `placed` rules, and `paid` rules too when the order is placed already paid (pretix's order creation sends
 * both signals then); a payment runs `paid` rules; nothing else runs any.
 */
export function modesOf(transition: string, orderStatus: string): AutoCheckinMode[] {
  if (transition === 'placed') return orderStatus === 'p' ? ['placed', 'paid'] : ['placed'];
  if (transition === 'paid') return ['paid'];
  return [];
}

/**
 * The rules of `mode` that apply to an order of `salesChannel` whose settled payments (confirmed or refunded,
 * pretix) used `paymentMethods` (none when placed): all channels or the order's; all payment methods or one
 * the order used.
 */
export function applicableRules<R extends RuleForMatch>(
  rules: readonly R[],
  mode: AutoCheckinMode,
  salesChannel: string,
  paymentMethods: ReadonlySet<string>,
): R[] {
  return rules.filter(
    (r) =>
      r.mode === mode &&
      (r.allSalesChannels || r.limitSalesChannels.includes(salesChannel)) &&
      (r.allPaymentMethods || r.limitPaymentMethods.some((m) => paymentMethods.has(m))),
  );
}

/**
 * The check-ins `rules` make for `positions` (pretix `perform_auto_checkin`): for each rule, its list (or, without
 * one, each of `eventLists`: the event's lists of no date or of a position's date), and each position that the
 * list admits by product (all products or a listed one) and date (a list of one date only for positions of that
 * date) and the rule matches (all products, or the position's product or variation is listed). Order status and
 * the list's `include_pending` are not considered (as pretix). Distinct pairs, by position then list.
 */
export function autoCheckinPairs(
  rules: readonly RuleForMatch[],
  positions: readonly PositionForMatch[],
  listsById: ReadonlyMap<number, ListForMatch>,
  eventLists: readonly ListForMatch[],
): AutoCheckinPair[] {
  const pairs = new Map<string, AutoCheckinPair>();
  for (const rule of rules) {
    const lists =
      rule.listId === null ? eventLists : [listsById.get(rule.listId)].filter((l) => l !== undefined);
    for (const list of lists) {
      for (const p of positions) {
        if (!list.allProducts && !list.itemIds.includes(p.itemId)) continue;
        if (!matchesProduct(rule, p)) continue;
        if (list.subeventId !== null && list.subeventId !== p.subeventId) continue;
        pairs.set(`${p.id}:${list.id}`, { positionId: p.id, listId: list.id });
      }
    }
  }
  return [...pairs.values()].sort((a, b) => a.positionId - b.positionId || a.listId - b.listId);
}

function matchesProduct(rule: RuleForMatch, p: PositionForMatch): boolean {
  return (
    rule.allProducts ||
    rule.itemIds.includes(p.itemId) ||
    (p.variationId !== null && rule.variationIds.includes(p.variationId))
  );
}
