import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ValidationFailed } from '../errors';
import { isIsoDateTime, parseDateTime } from '../values/datetime';

/**
 * Typed access to list filter parameters. An invalid value answers 400 `{"<param>": ["..."]}` (compat §1.4);
 * an absent or empty parameter is `undefined`.
 */
export class QueryFilters {
  constructor(private readonly query: Record<string, unknown>) {}

  /** The raw single value (the last one when repeated). */
  raw(name: string): string | undefined {
    const v = this.query[name];
    const s: unknown = Array.isArray(v) ? (v as unknown[])[v.length - 1] : v;
    return typeof s === 'string' && s !== '' ? s : undefined;
  }

  /** All values of a repeatable parameter (`?expand=a&expand=b`). */
  all(name: string): string[] {
    const v = this.query[name];
    return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x !== '');
  }

  str(name: string): string | undefined {
    return this.raw(name);
  }

  /** `true`/`false` (also `True`/`False`/`1`/`0`). */
  bool(name: string): boolean | undefined {
    const s = this.raw(name);
    if (s === undefined) return undefined;
    if (['true', 'True', '1'].includes(s)) return true;
    if (['false', 'False', '0'].includes(s)) return false;
    throw ValidationFailed.field(name, 'Must be a valid boolean.');
  }

  int(name: string): number | undefined {
    const s = this.raw(name);
    if (s === undefined) return undefined;
    if (!/^-?\d+$/.test(s) || Math.abs(Number(s)) > 2147483647)
      throw ValidationFailed.field(name, 'Enter a whole number.');
    return Number(s);
  }

  /** Comma-separated integers (`subevent__in=1,2`). */
  intList(name: string): number[] | undefined {
    const s = this.raw(name);
    if (s === undefined) return undefined;
    const parts = s
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    if (parts.some((x) => !/^\d+$/.test(x) || Number(x) > 2147483647))
      throw ValidationFailed.field(name, 'Enter a whole number.');
    return parts.map(Number);
  }

  /** Decimal string (`tax_rate=19.00`). */
  decimal(name: string): string | undefined {
    const s = this.raw(name);
    if (s === undefined) return undefined;
    if (!/^-?\d+(\.\d+)?$/.test(s)) throw ValidationFailed.field(name, 'Enter a number.');
    return s;
  }

  /** ISO 8601 datetime (a `+` in the offset must be URL-encoded). */
  datetime(name: string): Date | undefined {
    const s = this.raw(name);
    if (s === undefined) return undefined;
    if (!isIsoDateTime(s)) throw ValidationFailed.field(name, 'Enter a valid date/time.');
    return parseDateTime(s);
  }

  /** Expanded fields asked for with `?expand=` (repeatable), restricted to the allowed names. */
  expand(allowed: readonly string[]): Set<string> {
    return new Set(this.all('expand').filter((x) => allowed.includes(x)));
  }
}

/** Route parameter decorator giving {@link QueryFilters} for the current request. */

export const Filters = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): QueryFilters =>
    new QueryFilters(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>),
);
