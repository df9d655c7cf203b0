import type { QueryFilters } from '../../common/listing/query-filters';
import { maskOrder, orderFieldMask } from './order-field-mask';

/** pretix's `OrderSerializer` include/exclude on plain objects (the e2e spec covers the endpoints). */
describe('maskOrder', () => {
  const order = {
    code: 'ABC12',
    email: 'a@example.org',
    downloads: [{ output: 'pdf', url: 'u' }],
    positions: [
      { id: 1, secret: 's1', downloads: [] },
      { id: 2, secret: 's2', downloads: [] },
    ],
    fees: [] as { id: number }[],
    invoice_address: null as { city: string } | null,
  };

  it('returns the same object without include or exclude', () => {
    expect(maskOrder(order, { include: [], exclude: [] })).toBe(order);
  });

  it('include keeps named top-level fields and named children of nested ones', () => {
    expect(maskOrder(order, { include: ['code', 'positions.secret'], exclude: [] })).toEqual({
      code: 'ABC12',
      positions: [{ secret: 's1' }, { secret: 's2' }],
    });
  });

  it('include: downloads is a leaf (a dotted child drops it); empty or null nested values keep when named', () => {
    expect(maskOrder(order, { include: ['downloads.url'], exclude: [] })).toEqual({});
    expect(maskOrder(order, { include: ['fees.id', 'invoice_address.city'], exclude: [] })).toEqual({
      fees: [],
      invoice_address: null,
    });
  });

  it('exclude drops fields and children, ignores unknown and deeper names, runs after include', () => {
    expect(
      maskOrder(order, {
        include: [],
        exclude: ['email', 'positions.downloads', 'x', 'positions.x', 'a.b.c'],
      }),
    ).toEqual({
      code: 'ABC12',
      downloads: order.downloads,
      positions: [
        { id: 1, secret: 's1' },
        { id: 2, secret: 's2' },
      ],
      fees: [],
      invoice_address: null,
    });
    expect(maskOrder(order, { include: ['code', 'email'], exclude: ['email'] })).toEqual({ code: 'ABC12' });
  });

  it('reads the repeatable parameters', () => {
    const filters = {
      all: (n: string) => (n === 'include' ? ['code'] : ['fees']),
    } as unknown as QueryFilters;
    expect(orderFieldMask(filters)).toEqual({ include: ['code'], exclude: ['fees'] });
  });
});
