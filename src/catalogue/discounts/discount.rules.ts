import { Decimal } from '../../common/values/money';

/**
 * Pure rules of discounts (compat §3.25), kept apart from the database so they can be unit tested: pretix forbids
 * a few combinations of conditions and benefits because the best discount could not be computed reliably with
 * them.
 */

/** `subevent_mode` choices: dates mixed freely, all on the same date, each on a different date. */
export const SUBEVENT_MODES = ['mixed', 'same', 'distinct'] as const;

export const MIN_COUNT_AND_VALUE =
  'You can either set a minimum number of matching products or a minimum value, not both.';
export const NEITHER_MIN_COUNT_NOR_VALUE =
  'You need to either set a minimum number of matching products or a minimum value.';
export const MIN_VALUE_WITH_CHEAPEST_N =
  'You cannot apply the discount only to some of the matched products if you are matching on a minimum value.';
export const MIN_VALUE_WITH_DISTINCT =
  'You cannot apply the discount only to bookings of different dates if you are matching on a minimum value.';

/** The fields the combination rules look at, in wire form (merged stored and sent data). */
export interface DiscountConditions {
  condition_min_count: number;
  /** Money (number or string). */
  condition_min_value: string | number;
  /** 0 and null both mean "every match". */
  benefit_only_apply_to_cheapest_n_matches: number | null;
  subevent_mode: string;
}

/**
 * The `non_field_errors` messages of the forbidden combinations, in pretix's order, empty when the configuration
 * is allowed: a minimum count and a minimum value together; neither of them; a minimum value with "only the
 * cheapest n"; a minimum value with `subevent_mode: "distinct"`.
 */
export function discountConfigErrors(c: DiscountConditions): string[] {
  const count = c.condition_min_count > 0;
  const value = !new Decimal(c.condition_min_value).isZero();
  const errors: string[] = [];
  if (count && value) errors.push(MIN_COUNT_AND_VALUE);
  if (!count && !value) errors.push(NEITHER_MIN_COUNT_NOR_VALUE);
  if (value && (c.benefit_only_apply_to_cheapest_n_matches ?? 0) > 0) errors.push(MIN_VALUE_WITH_CHEAPEST_N);
  if (value && c.subevent_mode === 'distinct') errors.push(MIN_VALUE_WITH_DISTINCT);
  return errors;
}
