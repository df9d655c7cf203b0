/**
 * Datetimes are `timestamptz` in the database and ISO 8601 in UTC on the wire, `Z` suffix, with fractional
 * seconds only when present (compat §1.10: `2017-12-27T10:00:00Z`).
 */
export function isoUtc(value: Date): string;
export function isoUtc(value: Date | null | undefined): string | null;
export function isoUtc(value: Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.toISOString().replace('.000Z', 'Z');
}

/** ISO 8601 with an offset or `Z`; a naive value is read as UTC (the server time zone). */
export const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Parses a validated ISO datetime string; naive values are UTC. */
export function parseDateTime(value: string): Date {
  const naive = !/(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  return new Date(naive ? `${value.replace(' ', 'T')}Z` : value);
}

export function parseDateTimeOrNull(value: string | null | undefined): Date | null {
  return value === null || value === undefined ? null : parseDateTime(value);
}

/** True when the string is a real calendar datetime in ISO 8601 form. */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATETIME.test(value)) return false;
  if (Number.isNaN(parseDateTime(value).getTime())) return false;
  // `Date` rolls impossible days over (2030-02-30 -> 2030-03-02) and accepts hour 24: refuse both.
  const [y, m, d, h] = [value.slice(0, 4), value.slice(5, 7), value.slice(8, 10), value.slice(11, 13)].map(
    Number,
  );
  return h <= 23 && new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
}
