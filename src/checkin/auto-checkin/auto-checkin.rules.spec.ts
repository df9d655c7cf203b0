import { applicableRules, autoCheckinPairs, ListForMatch, modesOf, RuleForMatch } from './auto-checkin.rules';

const rule = (over: Partial<RuleForMatch> = {}): RuleForMatch => ({
  id: 1,
  listId: 10,
  mode: 'paid',
  allSalesChannels: true,
  limitSalesChannels: [],
  allProducts: true,
  itemIds: [],
  variationIds: [],
  allPaymentMethods: true,
  limitPaymentMethods: [],
  ...over,
});
const list = (over: Partial<ListForMatch> = {}): ListForMatch => ({
  id: 10,
  allProducts: true,
  itemIds: [],
  subeventId: null,
  ...over,
});
const position = (
  id: number,
  itemId: number,
  variationId: number | null = null,
  subeventId: number | null = null,
) => ({
  id,
  positionid: id,
  itemId,
  variationId,
  subeventId,
});

describe('automatic check-in rules (pretix plugin autocheckin)', () => {
  it('placement runs placed rules (and paid ones for an order placed paid); payment runs paid rules', () => {
    expect(modesOf('placed', 'n')).toEqual(['placed']);
    expect(modesOf('placed', 'p')).toEqual(['placed', 'paid']);
    expect(modesOf('paid', 'p')).toEqual(['paid']);
    expect(modesOf('canceled', 'c')).toEqual([]);
    expect(modesOf('changed', 'p')).toEqual([]);
  });

  it('filters rules by mode, sales channel and payment method', () => {
    const rules = [
      rule({ id: 1 }),
      rule({ id: 2, mode: 'placed' }),
      rule({ id: 3, allSalesChannels: false, limitSalesChannels: ['api'] }),
      rule({ id: 4, allPaymentMethods: false, limitPaymentMethods: ['banktransfer'] }),
    ];
    const ids = (mode: 'placed' | 'paid', channel: string, methods: string[]) =>
      applicableRules(rules, mode, channel, new Set(methods)).map((r) => r.id);
    expect(ids('paid', 'web', ['manual'])).toEqual([1]);
    expect(ids('paid', 'api', ['banktransfer', 'manual'])).toEqual([1, 3, 4]);
    expect(ids('placed', 'web', [])).toEqual([2]);
  });

  it('checks in matching positions on the rule list, by product or variation, once per pair', () => {
    const lists = new Map([[10, list()]]);
    const positions = [position(1, 100, 1000), position(2, 100, 1001), position(3, 200)];
    const byVariation = rule({ allProducts: false, variationIds: [1000] });
    const byItem = rule({ allProducts: false, itemIds: [200] });
    expect(autoCheckinPairs([byVariation, byItem, byItem], positions, lists, [])).toEqual([
      { positionId: 1, listId: 10 },
      { positionId: 3, listId: 10 },
    ]);
    expect(autoCheckinPairs([rule({ listId: 99 })], positions, lists, [])).toEqual([]);
  });

  it('respects the list products and its date; without a list uses every list of the event', () => {
    const limited = list({ id: 11, allProducts: false, itemIds: [100] });
    const dated = list({ id: 12, subeventId: 7 });
    const positions = [position(1, 100, null, 7), position(2, 200, null, 8)];
    expect(autoCheckinPairs([rule({ listId: null })], positions, new Map(), [limited, dated])).toEqual([
      { positionId: 1, listId: 11 },
      { positionId: 1, listId: 12 },
    ]);
  });
});
