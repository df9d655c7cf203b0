import { isDeepStrictEqual } from 'util';
import type { ErrorCollector } from '../common/errors';

/**
 * Sales channels of items and variations (compat §3.10 "Sales channels", §3.11): the 2024+ pair
 * `all_sales_channels` + `limit_sales_channels`, and the legacy list `sales_channels` that pretix's
 * SalesChannelMigrationMixin still accepts and returns. One implementation serves every resource that has them.
 */

/**
 * Identifiers of the sales channels every organizer has. Organizer-defined channels come later; until then these
 * are all channels.
 */
export const KNOWN_SALES_CHANNELS = ['web', 'api'] as const;

/** The channel fields of a write body (all optional; `sales_channels` null is refused). */
export interface SalesChannelInput {
  all_sales_channels?: boolean;
  limit_sales_channels?: string[];
  sales_channels?: string[] | null;
}

/**
 * The body without the legacy key, with the legacy `sales_channels` translated into the pair: all known channels
 * means `all_sales_channels: true`, anything else is `limit_sales_channels`. A true `all_sales_channels` clears
 * `limit_sales_channels`. Contradictions are added to `errors` (field-keyed, pretix's messages) and the legacy
 * value is then ignored.
 */
export function translateSalesChannels<T extends SalesChannelInput>(
  body: T,
  errors: ErrorCollector,
): Omit<T, 'sales_channels'> {
  const { sales_channels: legacy, ...rest } = body;
  const data = { ...rest } as Omit<T, 'sales_channels'> & SalesChannelInput;
  if (legacy === null) {
    errors.add(
      'sales_channels',
      "The legacy attribute 'sales_channels' cannot be set to None, it must be a list.",
    );
  } else if (legacy !== undefined) {
    const wanted = new Set(legacy);
    const all = KNOWN_SALES_CHANNELS.every((c) => wanted.has(c));
    const limit = data.limit_sales_channels;
    if (data.all_sales_channels && !all) {
      errors.add(
        'all_sales_channels',
        "If 'all_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the list of all sales channels.",
      );
    } else if (limit && limit.length > 0 && !isDeepStrictEqual(new Set(limit), wanted)) {
      errors.add(
        'limit_sales_channels',
        "If 'limit_sales_channels' is set, the legacy attribute 'sales_channels' must not be set or set to the same list.",
      );
    } else {
      data.all_sales_channels = all;
      data.limit_sales_channels = all ? [] : [...wanted];
    }
  }
  if (data.all_sales_channels) data.limit_sales_channels = [];
  return data;
}

/** The stored form of `limit_sales_channels`: distinct identifiers, sorted. */
export function normalizeChannels(limit: readonly string[]): string[] {
  return [...new Set(limit)].sort();
}

/** The legacy `sales_channels` value: every known channel when `all`, else the limit list (sorted). */
export function legacySalesChannels(all: boolean, limit: readonly string[]): string[] {
  return [...(all ? KNOWN_SALES_CHANNELS : limit)].sort();
}
