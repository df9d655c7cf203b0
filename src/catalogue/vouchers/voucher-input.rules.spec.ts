import { ErrorCollector } from '../../common/errors';
import type { SalesCatalogueRows } from '../sales/sales-catalogue.service';
import { applyVoucherInput, checkVoucherInput, VOUCHER_DEFAULTS, VoucherInput } from './voucher-input.rules';
import type { Voucher } from './voucher.entity';

describe('voucher input rules', () => {
  const event = { id: 1, hasSubevents: false } as Parameters<typeof checkVoucherInput>[0];
  const item = (over: object = {}) => ({ id: 5, eventId: 1, hasVariations: false, isAddon: false, ...over });
  const refs = (over: Partial<SalesCatalogueRows> = {}): SalesCatalogueRows =>
    ({
      items: new Map([[5, item()]]),
      variations: new Map([[7, { id: 7, itemId: 5, eventId: 1, defaultPrice: null }]]),
      quotas: new Set([9]),
      subevents: new Map(),
      ...over,
    }) as unknown as SalesCatalogueRows;
  const input = (over: Partial<VoucherInput> = {}): VoucherInput => ({
    ...VOUCHER_DEFAULTS,
    code: 'ABC',
    ...over,
  });
  const check = (i: VoucherInput, r = refs(), redeemed = 0) => {
    const errors = new ErrorCollector();
    checkVoucherInput(event, i, r, redeemed, errors);
    return errors.toJSON();
  };

  it('accepts the defaults and known references of the event', () => {
    expect(check(input())).toEqual({});
    expect(check(input({ item: 5 }))).toEqual({});
    expect(check(input({ quota: 9, block_quota: true }))).toEqual({});
  });

  it('treats references of another event as unknown ids', () => {
    const foreign = refs({ items: new Map([[5, item({ eventId: 2 })]]) } as Partial<SalesCatalogueRows>);
    expect(check(input({ item: 5 }), foreign)).toEqual({ item: ['Invalid pk "5" - object does not exist.'] });
    expect(check(input({ quota: 8 }))).toEqual({ quota: ['Invalid pk "8" - object does not exist.'] });
  });

  it('applies the cross-field rules of compat §3.23', () => {
    expect(check(input({ item: 5, quota: 9 }))).toEqual({
      non_field_errors: ['You cannot select a quota and a specific product at the same time.'],
    });
    expect(check(input({ block_quota: true })).block_quota).toHaveLength(1);
    expect(check(input({ max_usages: 2 }), refs(), 3).max_usages).toHaveLength(1);
    expect(check(input({ min_usages: 3, max_usages: 2 })).min_usages).toHaveLength(1);
  });

  it('writes the merged input onto the row, money normalised', () => {
    const voucher = {} as Voucher;
    applyVoucherInput(voucher, input({ value: '5', budget: '10', valid_until: '2030-01-01T00:00:00Z' }));
    expect(voucher).toMatchObject({ code: 'ABC', value: '5.00', budget: '10.00', seatId: null });
    expect(voucher.validUntil?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });
});
