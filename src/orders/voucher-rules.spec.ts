import { voucherProblem, VoucherRuleInput } from './voucher-rules';

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

describe('voucher rules', () => {
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

  it('checks quota vouchers against the quota products', () => {
    const v = { ...base, quotaId: 3 };
    expect(voucherProblem(v, product, now, 0, 1, new Set(['1']))).toBeNull();
    expect(voucherProblem(v, product, now, 0, 1, new Set(['2']))).toBe('invalid_item');
    expect(voucherProblem(v, { ...product, variationId: 4 }, now, 0, 1, new Set(['1:4']))).toBeNull();
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
