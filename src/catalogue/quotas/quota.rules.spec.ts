import { availabilityOf, QuotaCounts } from './quota-availability';
import { QUOTA_RULES, QuotaItemRef, quotaRuleViolation, QuotaVariationRef } from './quota.rules';

describe('quotaRuleViolation (compat §3.14)', () => {
  const event = { id: 1, hasSubevents: false };
  const items = new Map<number, QuotaItemRef>([
    [10, { id: 10, eventId: 1, hasVariations: false }],
    [11, { id: 11, eventId: 1, hasVariations: true }],
    [20, { id: 20, eventId: 2, hasVariations: false }],
  ]);
  const variations = new Map<number, QuotaVariationRef>([
    [110, { id: 110, itemId: 11 }],
    [111, { id: 111, itemId: 11 }],
  ]);
  const check = (items_: number[], variations_: number[], subevent: number | null = null, ev = event) =>
    quotaRuleViolation(ev, { items: items_, variations: variations_, subevent }, items, variations);

  it('accepts empty quotas, plain items, and items with at least one of their variations', () => {
    expect(check([], [])).toBeNull();
    expect(check([10], [])).toBeNull();
    expect(check([10, 11], [110])).toBeNull();
    expect(check([11], [110, 111])).toBeNull();
  });

  it('rejects a variation whose item is not listed, before any item rule', () => {
    expect(check([10], [110])).toBe(QUOTA_RULES.variationOutsideItems);
    expect(check([20], [110])).toBe(QUOTA_RULES.variationOutsideItems);
  });

  it('rejects items of another event', () => {
    expect(check([10, 20], [])).toBe(QUOTA_RULES.foreignItems);
  });

  it('rejects an item with variations when none of its variations is listed', () => {
    expect(check([11], [])).toBe(QUOTA_RULES.variationsMissing);
  });

  it('requires a sub-event exactly for event series, after the item rules', () => {
    const series = { id: 1, hasSubevents: true };
    expect(check([10], [], null, series)).toBe(QUOTA_RULES.subeventRequired);
    expect(check([10], [], 4, series)).toBeNull();
    expect(check([10], [], 4)).toBe(QUOTA_RULES.subeventWithoutSeries);
    expect(check([11], [], null, series)).toBe(QUOTA_RULES.variationsMissing);
  });
});

describe('availabilityOf (spec "Quota availability object")', () => {
  const counts = (over: Partial<QuotaCounts> = {}): QuotaCounts => ({
    paid_orders: 0,
    pending_orders: 0,
    exited_orders: 0,
    cart_positions: 0,
    blocking_vouchers: 0,
    waiting_list: 0,
    ...over,
  });

  it('subtracts orders, carts and blocking vouchers from the size, never below zero', () => {
    const taken = counts({ paid_orders: 1, pending_orders: 2, cart_positions: 3, blocking_vouchers: 4 });
    expect(availabilityOf({ size: 12, closed: false, releaseAfterExit: false }, taken)).toEqual({
      ...taken,
      available: true,
      available_number: 2,
      total_size: 12,
    });
    expect(availabilityOf({ size: 5, closed: false, releaseAfterExit: false }, taken)).toMatchObject({
      available: false,
      available_number: 0,
    });
  });

  it('gives exited places back only with release_after_exit', () => {
    const taken = counts({ paid_orders: 3, exited_orders: 2 });
    expect(availabilityOf({ size: 3, closed: false, releaseAfterExit: false }, taken).available_number).toBe(
      0,
    );
    expect(availabilityOf({ size: 3, closed: false, releaseAfterExit: true }, taken).available_number).toBe(
      2,
    );
  });

  it('has nothing available when closed and no limit when unlimited', () => {
    expect(availabilityOf({ size: 10, closed: true, releaseAfterExit: false }, counts())).toMatchObject({
      available: false,
      available_number: 0,
      total_size: 10,
    });
    expect(availabilityOf({ size: null, closed: false, releaseAfterExit: false }, counts())).toMatchObject({
      available: true,
      available_number: null,
      total_size: null,
    });
  });
});
