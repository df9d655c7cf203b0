import Decimal from 'decimal.js';

/** The tax-relevant part of a tax rule (spec "Tax rule"): rate in percent, and whether prices include it. */
export interface TaxRuleLike {
  id: number;
  rate: string;
  priceIncludesTax: boolean;
}

/** The price-relevant part of a voucher (spec "Voucher" `price_mode`, `value`). */
export interface VoucherPriceLike {
  priceMode: string;
  value: string;
}

const money = (d: Decimal): Decimal => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** Listed price of a product: the variation's own price, else the item's (money strings). */
export function listedPrice(
  itemDefaultPrice: string,
  variationDefaultPrice: string | null | undefined,
): Decimal {
  return new Decimal(variationDefaultPrice ?? itemDefaultPrice);
}

/**
 * Price after a voucher (pretix `Voucher.calculate_price`): `set` uses the voucher value, `subtract` takes it
 * off, `percent` reduces by that percentage, `none` keeps the price; never below zero.
 */
export function priceAfterVoucher(listed: Decimal, voucher: VoucherPriceLike | null): Decimal {
  if (!voucher) return listed;
  const value = new Decimal(voucher.value);
  let price = listed;
  if (voucher.priceMode === 'set') price = value;
  else if (voucher.priceMode === 'subtract') price = listed.minus(value);
  else if (voucher.priceMode === 'percent')
    price = listed.times(new Decimal(100).minus(value)).dividedBy(100);
  return Decimal.max(money(price), 0);
}

/**
 * Gross price and tax of a line. A computed price is the listed price; when the rule's prices exclude tax it is
 * net, so tax is added on top. A price sent by the client is taken as gross.
 */
export function lineTax(
  price: Decimal,
  rule: TaxRuleLike | null,
  priceIsGross: boolean,
): { gross: Decimal; tax: Decimal; rate: Decimal } {
  if (!rule) return { gross: money(price), tax: new Decimal(0), rate: new Decimal(0) };
  const rate = new Decimal(rule.rate);
  if (!priceIsGross && !rule.priceIncludesTax) {
    const tax = money(price.times(rate).dividedBy(100));
    return { gross: money(price).plus(tax), tax, rate };
  }
  const gross = money(price);
  const tax = money(gross.times(rate).dividedBy(rate.plus(100)));
  return { gross, tax, rate };
}
