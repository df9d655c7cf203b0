import Decimal from 'decimal.js';

/**
 * Money and decimal values. Stored as `numeric(13,2)`, carried on the wire as strings with two decimals
 * (spec "Conventions" 6, compat §1.10). Arithmetic uses decimal.js, never floats.
 */
export type MoneyString = string;

/** Normalises a validated money input (number or string) to its canonical `"23.00"` form. */
export function toMoney(value: string | number | Decimal): MoneyString {
  return new Decimal(value).toFixed(2);
}

/** Money from the database (`numeric` comes back as a string) or null. */
export function moneyOrNull(value: string | number | null | undefined): MoneyString | null {
  return value === null || value === undefined ? null : toMoney(value);
}

export { Decimal };
