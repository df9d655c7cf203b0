import type { SaleItem, SalesCatalogueRows } from '../../catalogue/sales/sales-catalogue.service';
import type { SaleVoucher } from '../../catalogue/vouchers/voucher-redemption.rules';
import { FieldErrors, ValidationFailed } from '../../common/errors';
import { Decimal } from '../../common/values/money';
import type { CreateOrderDto } from './order.dto';
import {
  checkVoucherUse,
  minUsagesMessage,
  CreateReferences,
  initialStatus,
  priceFees,
  pricePositions,
  quotaProducts,
  ResolvedPosition,
  resolvePositions,
} from './order-create.rules';
import { CODE_IN_USE, ORDER_EMPTY, ORDER_VOUCHER_MESSAGES, VOUCHER_ON_ADDON } from './order-create.messages';
import { invoiceAddressValues } from './invoice-address.rules';
import { SALES_MESSAGES } from '../writing/sales.rules';

const event = { id: 1, organizerId: 7, hasSubevents: false, timezone: 'UTC' };
const item = (over: Partial<SaleItem> = {}): SaleItem => ({
  id: 10,
  eventId: 1,
  active: true,
  hasVariations: false,
  name: { en: 'Ticket' },
  defaultPrice: '20.00',
  taxRuleId: null,
  categoryId: null,
  isAddon: false,
  validityMode: null,
  validityFixedFrom: null,
  validityFixedUntil: null,
  validityDynamicDurationMinutes: null,
  validityDynamicDurationHours: null,
  validityDynamicDurationDays: null,
  validityDynamicDurationMonths: null,
  ...over,
});
const voucher = (over: Partial<SaleVoucher> = {}): SaleVoucher => ({
  id: 50,
  code: 'SAVE',
  itemId: null,
  variationId: null,
  quotaId: null,
  subeventId: null,
  validUntil: null,
  maxUsages: 1,
  minUsages: 1,
  redeemed: 0,
  budget: null,
  budgetUsed: '0.00',
  blockQuota: false,
  allowIgnoreQuota: false,
  priceMode: 'subtract',
  value: '5.00',
  seatId: null,
  ...over,
});
const catalogue = (items: SaleItem[], vouchers: SaleVoucher[] = []): SalesCatalogueRows => ({
  items: new Map(items.map((i) => [i.id, i])),
  variations: new Map(),
  taxRules: new Map([[3, { id: 3, eventId: 1, rate: '19.00', priceIncludesTax: false, code: null }]]),
  vouchersById: new Map(vouchers.map((v) => [v.id, v])),
  vouchersByCode: new Map(vouchers.map((v) => [v.code, v])),
  quotaProducts: new Map(),
  quotas: new Set(),
  subevents: new Map(),
  subeventPrices: new Map(),
  subeventAvailability: new Map(),
  ofOrganizer: (eventId) => eventId === 1,
});
const refs = (c: SalesCatalogueRows, over: Partial<CreateReferences> = {}): CreateReferences => ({
  catalogue: c,
  takenSecrets: new Set(),
  codeTaken: false,
  ...over,
});
const body = (over: Partial<CreateOrderDto>): CreateOrderDto => ({ positions: [], ...over });
const errorsOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationFailed) return err.errors;
    throw err;
  }
  return null;
};

describe('order creation rules', () => {
  describe('resolvePositions', () => {
    it('resolves valid positions, numbering them 1..n', () => {
      const b = body({
        positions: [{ item: 10 }, { item: 10, voucher: 'save' }] as CreateOrderDto['positions'],
      });
      const resolved = resolvePositions(
        event,
        b,
        refs(catalogue([item()], [voucher()])),
        [[], []],
        [null, null],
      );
      expect(resolved.map((r) => [r.positionid, r.item.id, r.voucher?.id ?? null])).toEqual([
        [1, 10, null],
        [2, 10, 50],
      ]);
    });

    it('reports field errors together, aligned with the positions', () => {
      const b = body({
        code: 'ABCDE',
        positions: [{ item: 10 }, { item: 99, voucher: 'NOPE', secret: 's' }] as CreateOrderDto['positions'],
      });
      const r = refs(catalogue([item()]), { codeTaken: true, takenSecrets: new Set(['s']) });
      expect(errorsOf(() => resolvePositions(event, b, r, [[], []], [null, null]))).toEqual({
        code: [CODE_IN_USE],
        positions: [
          {},
          {
            item: ['Invalid pk "99" - object does not exist.'],
            secret: ['You cannot assign a position secret that already exists.'],
            voucher: ['The specified voucher does not exist.'],
          },
        ],
      });
    });

    it('reports the first cross-field rule of a position, and an empty order', () => {
      const b = body({
        positions: [
          { item: 10, attendee_name: 'A', attendee_name_parts: { given_name: 'A' } },
        ] as CreateOrderDto['positions'],
      });
      expect(errorsOf(() => resolvePositions(event, b, refs(catalogue([item()])), [[]], [null]))).toEqual({
        positions: [{ attendee_name: [SALES_MESSAGES.nameTwice] }],
      });
      expect(errorsOf(() => resolvePositions(event, body({}), refs(catalogue([])), [], []))).toEqual({
        positions: [ORDER_EMPTY],
      });
    });
  });

  describe('checkVoucherUse', () => {
    const resolved = (v: SaleVoucher, over: Partial<ResolvedPosition> = {}): ResolvedPosition => ({
      input: {} as ResolvedPosition['input'],
      positionid: 1,
      addonTo: null,
      item: item(),
      variation: null,
      voucher: v,
      answers: [],
      subeventId: null,
      listed: new Decimal(20),
      ...over,
    });
    const run = (positions: ResolvedPosition[], inCarts = 0, force = false) => {
      const errs: FieldErrors[] = positions.map(() => ({}));
      const inUse = new Map(positions.map((p) => [p.voucher!.id, { voucher: p.voucher!, inCarts }]));
      checkVoucherUse(positions, inUse, { quotaProducts: new Map() }, new Date(), force, errs);
      return errs;
    };

    it('counts uses over the request and live carts, unless forced', () => {
      const v = voucher({ maxUsages: 2 });
      expect(run([resolved(v), resolved(v)])).toEqual([{}, {}]);
      expect(run([resolved(v), resolved(v)], 1)).toEqual([{}, { voucher: [ORDER_VOUCHER_MESSAGES.used_up] }]);
      expect(run([resolved(v), resolved(v)], 1, true)).toEqual([{}, {}]);
    });

    it('needs a voucher used at least max(1, min_usages - redeemed) times in the order, unless forced', () => {
      const v = voucher({ code: 'GROUP', maxUsages: 10, minUsages: 3 });
      const refusal = {
        voucher: ['The voucher code "GROUP" can only be used if you select at least 3 matching products.'],
      };
      expect(run([resolved(v), resolved(v)])).toEqual([refusal, refusal]);
      expect(run([resolved(v), resolved(v), resolved(v)])).toEqual([{}, {}, {}]);
      expect(run([resolved(v), resolved(v)], 0, true)).toEqual([{}, {}]);
      const partly = voucher({ code: 'GROUP', maxUsages: 10, minUsages: 3, redeemed: 2 });
      expect(run([resolved(partly)])).toEqual([{}]);
      expect(minUsagesMessage('X', 2)).toBe(
        'The voucher code "X" can only be used if you select at least 2 matching products.',
      );
    });

    it('refuses vouchers on add-ons and for other products', () => {
      expect(run([resolved(voucher(), { addonTo: 1 })])).toEqual([{ voucher: [VOUCHER_ON_ADDON] }]);
      expect(run([resolved(voucher({ itemId: 11 }))])).toEqual([
        { voucher: [ORDER_VOUCHER_MESSAGES.invalid_item] },
      ]);
    });

    it('raises a computed price to what the budget still covers, and refuses a sent price that needs more', () => {
      const v = voucher({ budget: '8.00', budgetUsed: '5.00', maxUsages: 5 });
      const computed = resolved(v);
      expect(run([computed])).toEqual([{}]);
      expect(computed.priceOverride?.toFixed(2)).toBe('17.00');
      const sent = resolved(v, { input: { price: '15.00' } as ResolvedPosition['input'] });
      expect(run([sent])).toEqual([
        {
          voucher: [
            'The voucher has a remaining budget of 3.00, therefore a discount of 5.00 can not be given.',
          ],
        },
      ]);
    });
  });

  describe('prices', () => {
    it('takes the voucher off the listed price, adds tax of a net rule, and records the budget use', () => {
      const taxed = item({ taxRuleId: 3 });
      const resolved: ResolvedPosition = {
        input: {} as ResolvedPosition['input'],
        positionid: 1,
        addonTo: null,
        item: taxed,
        variation: null,
        voucher: voucher(),
        answers: [],
        subeventId: null,
        listed: new Decimal(taxed.defaultPrice),
      };
      const [p] = pricePositions(event, [resolved], catalogue([taxed]).taxRules, new Set(), new Date());
      expect(p.values).toMatchObject({
        price: '17.85',
        taxValue: '2.85',
        taxRate: '19.00',
        voucherBudgetUse: '5.00',
      });
      expect(p.budgetUse?.toFixed(2)).toBe('5.00');
    });

    it('prices an add-on whose parent includes its category at 0', () => {
      const parent: ResolvedPosition = {
        input: {} as ResolvedPosition['input'],
        positionid: 1,
        addonTo: null,
        item: item(),
        subeventId: null,
        listed: new Decimal(20),
        variation: null,
        voucher: null,
        answers: [],
      };
      const addon = { ...parent, positionid: 2, addonTo: 1, item: item({ id: 11, categoryId: 4 }) };
      const priced = pricePositions(event, [parent, addon], new Map(), new Set(['10/4']), new Date());
      expect(priced.map((p) => [p.values.price, p.values.addonToId])).toEqual([
        ['20.00', null],
        ['0.00', 1],
      ]);
    });

    it('takes fees as gross and taxes them by their rule', () => {
      const fees = priceFees(
        [{ fee_type: 'service', value: '11.90', tax_rule: 3 }] as never,
        catalogue([]).taxRules,
      );
      expect(fees).toEqual([
        {
          feeType: 'service',
          value: '11.90',
          description: '',
          internalType: '',
          taxRate: '19.00',
          taxValue: '1.90',
          taxRuleId: 3,
          taxCode: null,
          canceled: false,
          canceledWithOrder: false,
        },
      ]);
    });

    it('makes a free order paid and a priced one pending unless paid was asked for', () => {
      expect(initialStatus({}, new Decimal(0))).toBe('p');
      expect(initialStatus({}, new Decimal(1))).toBe('n');
      expect(initialStatus({ status: 'p' }, new Decimal(1))).toBe('p');
    });
  });

  it('draws quota for positions unless their voucher ignores or blocks it', () => {
    const base = {
      input: {} as ResolvedPosition['input'],
      positionid: 1,
      addonTo: null,
      item: item(),
      variation: null,
      answers: [],
      subeventId: null,
      listed: new Decimal(20),
    };
    const positions = [
      { ...base, voucher: null },
      { ...base, voucher: voucher({ blockQuota: true }) },
    ] as ResolvedPosition[];
    expect(quotaProducts(positions)).toEqual([{ itemId: 10, variationId: null, subeventId: null }, null]);
  });

  it('stores an invoice address with legacy name and upper-cased country', () => {
    const now = new Date();
    expect(invoiceAddressValues({ name: 'Ann', country: 'de' }, now)).toMatchObject({
      nameParts: { _legacy: 'Ann' },
      country: 'DE',
      company: '',
      lastModified: now,
    });
  });
});
