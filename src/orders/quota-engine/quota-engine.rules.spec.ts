import type { CountedQuota } from '../../catalogue/quotas/quota-availability';
import { ProductSales, sumQuotaCounts } from './quota-engine.rules';

describe('quota engine sums', () => {
  const quota = (over: Partial<CountedQuota>): CountedQuota => ({
    id: 1,
    eventId: 1,
    subeventId: null,
    size: 10,
    closed: false,
    releaseAfterExit: false,
    itemIds: [],
    variationIds: [],
    ...over,
  });
  const row = (over: Partial<ProductSales>): ProductSales => ({
    item_id: 1,
    variation_id: null,
    subevent_id: null,
    voucher_id: null,
    paid: 0,
    pending: 0,
    exited: 0,
    carts: 0,
    ...over,
  });

  it('counts a product without variation on quotas listing its item, a variation on those listing it', () => {
    const rows = [
      row({ item_id: 1, paid: 2, pending: 1, exited: 1 }),
      row({ item_id: 2, variation_id: 7, paid: 3, carts: 2 }),
      row({ item_id: 2, variation_id: 8, pending: 5 }),
    ];
    const counts = sumQuotaCounts(
      [
        quota({ id: 1, itemIds: [1, 2] }),
        quota({ id: 2, variationIds: [7] }),
        quota({ id: 3, itemIds: [9] }),
      ],
      rows,
      new Map([[3, 4]]),
      new Set(),
    );
    expect(counts.get(1)).toMatchObject({
      paid_orders: 2,
      pending_orders: 1,
      exited_orders: 1,
      cart_positions: 0,
    });
    // Item 2 has variations: its rows count on quotas listing the variation, not the item.
    expect(counts.get(2)).toMatchObject({ paid_orders: 3, pending_orders: 0, cart_positions: 2 });
    expect(counts.get(3)).toEqual({
      paid_orders: 0,
      pending_orders: 0,
      exited_orders: 0,
      cart_positions: 0,
      blocking_vouchers: 4,
      waiting_list: 0,
    });
  });

  it('matches the sub-event and leaves out carts holding a blocking voucher', () => {
    const rows = [
      row({ subevent_id: 5, paid: 1 }),
      row({ carts: 2 }),
      row({ carts: 3, voucher_id: 11 }),
      row({ carts: 4, voucher_id: 12 }),
    ];
    const counts = sumQuotaCounts([quota({ itemIds: [1, 1] })], rows, new Map(), new Set([11]));
    expect(counts.get(1)).toMatchObject({ paid_orders: 0, cart_positions: 6 });
    const series = sumQuotaCounts([quota({ subeventId: 5, itemIds: [1] })], rows, new Map(), new Set());
    expect(series.get(1)).toMatchObject({ paid_orders: 1, cart_positions: 0 });
  });

  it('counts open waiting list entries like sales: by variation, else by item, per date', () => {
    const counts = sumQuotaCounts(
      [
        quota({ id: 1, itemIds: [1] }),
        quota({ id: 2, variationIds: [7] }),
        quota({ id: 3, itemIds: [1], subeventId: 5 }),
      ],
      [],
      new Map(),
      new Set(),
      [
        { item_id: 1, variation_id: null, subevent_id: null, n: 2 },
        { item_id: 2, variation_id: 7, subevent_id: null, n: 3 },
        { item_id: 1, variation_id: null, subevent_id: 5, n: 1 },
      ],
    );
    expect(counts.get(1)!.waiting_list).toBe(2);
    expect(counts.get(2)!.waiting_list).toBe(3);
    expect(counts.get(3)!.waiting_list).toBe(1);
  });
});
