import Decimal from 'decimal.js';
import { lineTax, listedPrice, priceAfterVoucher } from './pricing';

describe('pricing', () => {
  it('lists the variation price when it has one, else the item price', () => {
    expect(listedPrice('23.00', null).toFixed(2)).toBe('23.00');
    expect(listedPrice('23.00', '30.00').toFixed(2)).toBe('30.00');
  });

  it.each([
    ['none', '5.00', '23.00'],
    ['set', '12.50', '12.50'],
    ['subtract', '5.00', '18.00'],
    ['subtract', '50.00', '0.00'],
    ['percent', '25.00', '17.25'],
    ['percent', '33.33', '15.33'],
  ])('applies voucher price_mode %s with value %s', (mode, value, expected) => {
    expect(priceAfterVoucher(new Decimal('23.00'), { priceMode: mode, value }).toFixed(2)).toBe(expected);
  });

  it('computes tax included in a gross price', () => {
    const r = lineTax(new Decimal('119.00'), { id: 1, rate: '19.00', priceIncludesTax: true }, false);
    expect([r.gross.toFixed(2), r.tax.toFixed(2), r.rate.toFixed(2)]).toEqual(['119.00', '19.00', '19.00']);
  });

  it('adds tax on top of a net listed price, but takes a client price as gross', () => {
    const rule = { id: 1, rate: '19.00', priceIncludesTax: false };
    const computed = lineTax(new Decimal('100.00'), rule, false);
    expect([computed.gross.toFixed(2), computed.tax.toFixed(2)]).toEqual(['119.00', '19.00']);
    const sent = lineTax(new Decimal('100.00'), rule, true);
    expect([sent.gross.toFixed(2), sent.tax.toFixed(2)]).toEqual(['100.00', '15.97']);
  });

  it('has no tax without a rule', () => {
    const r = lineTax(new Decimal('10'), null, false);
    expect([r.gross.toFixed(2), r.tax.toFixed(2), r.rate.toFixed(2)]).toEqual(['10.00', '0.00', '0.00']);
  });
});
