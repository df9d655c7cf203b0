import { Decimal } from '../../common/values/money';
import {
  exceedsUsage,
  redoProblem,
  skipsQuota,
  voucherProblem,
  VoucherRuleInput,
  voucherUses,
} from './voucher-redemption.rules';

const base: VoucherRuleInput = {
  itemId: null,
  variationId: null,
  quotaId: null,
  subeventId: null,
  validUntil: null,
  maxUsages: 1,
  redeemed: 0,
};
const now = new Date('2030-01-01T00:00:00Z');
const product = { itemId: 1, variationId: null, subeventId: null };

describe('voucher redemption rules', () => {
  describe('voucherProblem', () => {
    it('accepts a voucher for all products', () => {
      expect(voucherProblem(base, product, now, 0, 1)).toBeNull();
    });

    it('checks item and variation', () => {
      expect(voucherProblem({ ...base, itemId: 2 }, product, now, 0, 1)).toBe('invalid_item');
      expect(
        voucherProblem({ ...base, itemId: 1, variationId: 5 }, { ...product, variationId: 6 }, now, 0, 1),
      ).toBe('invalid_item');
      expect(
        voucherProblem({ ...base, itemId: 1, variationId: 5 }, { ...product, variationId: 5 }, now, 0, 1),
      ).toBeNull();
      expect(voucherProblem({ ...base, itemId: 1 }, { ...product, variationId: 5 }, now, 0, 1)).toBeNull();
    });

    it('checks quota vouchers against the products the quota counts', () => {
      const v = { ...base, quotaId: 3 };
      const counts = (itemIds: number[], variationIds: number[] = []) => ({ itemIds, variationIds });
      expect(voucherProblem(v, product, now, 0, 1, counts([1]))).toBeNull();
      expect(voucherProblem(v, product, now, 0, 1, counts([2]))).toBe('invalid_item');
      expect(voucherProblem(v, { ...product, variationId: 4 }, now, 0, 1, counts([], [4]))).toBeNull();
      // A variation counts only through the quota's variations, not through its item.
      expect(voucherProblem(v, { ...product, variationId: 4 }, now, 0, 1, counts([1]))).toBe('invalid_item');
      expect(voucherProblem(v, product, now, 0, 1)).toBe('invalid_item');
    });

    it('checks sub-event, expiry and usage', () => {
      expect(voucherProblem({ ...base, subeventId: 9 }, product, now, 0, 1)).toBe('invalid_subevent');
      expect(
        voucherProblem({ ...base, validUntil: new Date('2029-12-31T23:59:59Z') }, product, now, 0, 1),
      ).toBe('expired');
      expect(voucherProblem({ ...base, maxUsages: 3, redeemed: 1 }, product, now, 1, 1)).toBeNull();
      expect(voucherProblem({ ...base, maxUsages: 3, redeemed: 1 }, product, now, 1, 2)).toBe('used_up');
    });
  });

  describe('exceedsUsage', () => {
    it('counts redemptions and live carts against max_usages', () => {
      const v = { maxUsages: 3, redeemed: 1 };
      expect(exceedsUsage(v, 0, 2)).toBe(false);
      expect(exceedsUsage(v, 1, 2)).toBe(true);
      expect(exceedsUsage(v, 2, 0)).toBe(false);
    });
  });

  describe('redoProblem', () => {
    const voucher = { maxUsages: 3, redeemed: 1, budget: null, budgetUsed: '0.00' };
    const use = (count: number, budget = '0') => ({ count, budget: new Decimal(budget) });

    it('allows redemptions that fit next to stored ones and live carts', () => {
      expect(redoProblem(voucher, use(2), 0)).toBeNull();
      expect(redoProblem(voucher, use(1), 1)).toBeNull();
    });

    it('refuses when used up by redemptions or carts', () => {
      expect(redoProblem(voucher, use(3), 0)).toBe('used_up');
      expect(redoProblem(voucher, use(1), 2)).toBe('used_up');
    });

    it('refuses when the budget would be exceeded', () => {
      const budgeted = { ...voucher, budget: '10.00', budgetUsed: '7.00' };
      expect(redoProblem(budgeted, use(1, '3.00'), 0)).toBeNull();
      expect(redoProblem(budgeted, use(1, '3.01'), 0)).toBe('budget');
    });
  });

  describe('voucherUses', () => {
    it('counts positions and budget per voucher, skipping positions without one', () => {
      const uses = voucherUses([
        { voucherId: 3, voucherBudgetUse: '2.00' },
        { voucherId: null, voucherBudgetUse: null },
        { voucherId: 3, voucherBudgetUse: null },
        { voucherId: 5, voucherBudgetUse: new Decimal('1.50') },
      ]);
      expect([...uses.entries()].map(([id, u]) => [id, u.count, u.budget.toFixed(2)])).toEqual([
        [3, 2, '2.00'],
        [5, 1, '1.50'],
      ]);
    });
  });

  it('lets quota-ignoring and blocking vouchers skip quota', () => {
    expect(skipsQuota(null)).toBe(false);
    expect(skipsQuota({ allowIgnoreQuota: false, blockQuota: false })).toBe(false);
    expect(skipsQuota({ allowIgnoreQuota: true, blockQuota: false })).toBe(true);
    expect(skipsQuota({ allowIgnoreQuota: false, blockQuota: true })).toBe(true);
  });
});
