import { isDeepStrictEqual } from 'util';
import type { ErrorCollector } from '../../common/errors';

/**
 * The sales-channel fields of every resource that has them (events here; items, variations and discounts in the
 * catalogue, compat §3.10 "Sales channels"): the 2024+ pair `all_sales_channels` + `limit_sales_channels`, and
 * the legacy list `sales_channels` that pretix's `SalesChannelMigrationMixin` still accepts and returns. The
 * organizer's channel identifiers (`SalesChannelDirectory.identifiers`) are what "all channels" means and what
 * a limit list may name.
 */

/** The channel fields of a write body (all optional; `sales_channels` null is refused). */
export interface SalesChannelInput {
  all_sales_channels?: boolean;
  limit_sales_channels?: string[];
  sales_channels?: string[] | null;
}

/**
 * The body without the legacy key, with the legacy `sales_channels` translated into the pair: the organizer's
 * full channel list means `all_sales_channels: true`, anything else is `limit_sales_channels`. A true
 * `all_sales_channels` clears `limit_sales_channels`. Contradictions and identifiers the organizer has no
 * channel for are added to `errors` (field-keyed, pretix's messages; unknown identifiers under
 * `limit_sales_channels`, DRF's `SlugRelatedField` message, also when they came through the legacy key).
 * @param channels the organizer's channel identifiers
 */
export function translateSalesChannels<T extends SalesChannelInput>(
  body: T,
  errors: ErrorCollector,
  channels: readonly string[],
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
    const all = isDeepStrictEqual(wanted, new Set(channels));
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
  for (const identifier of data.limit_sales_channels ?? []) {
    if (!channels.includes(identifier)) {
      errors.add('limit_sales_channels', `Object with identifier=${identifier} does not exist.`);
      break;
    }
  }
  return data;
}

/** The stored form of `limit_sales_channels`: distinct identifiers, sorted. */
export function normalizeChannels(limit: readonly string[]): string[] {
  return [...new Set(limit)].sort();
}

/** The legacy `sales_channels` value: the organizer's channels when `all`, else the limit list (sorted). */
export function legacySalesChannels(
  all: boolean,
  limit: readonly string[],
  channels: readonly string[],
): string[] {
  return [...(all ? channels : limit)].sort();
}
