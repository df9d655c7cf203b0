import type { RequestAccess } from '../auth/request-context';
import { PermissionDenied } from '../common/errors';
import { filter, ListFiltersSpec } from '../common/http/list-filters';
import type { QueryFilters } from '../common/listing/query-filters';

/** What `?expand=` may ask for, with the permission each needs (docs/permissions.md "seats"). */
const EXPANDABLE: Record<string, string> = {
  orderposition: 'event.orders:read',
  cartposition: 'event.orders:read',
  voucher: 'event.vouchers:read',
};

/** Filters, ordering and expansions of both seat lists (compat §3.18), for `@ListFilters`. */
export const SEAT_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    zone_name: filter.text('Zone name (exact match).'),
    row_name: filter.text('Row name (exact match).'),
    row_label: filter.text('Row label (exact match).'),
    seat_number: filter.text('Seat number (exact match).'),
    seat_label: filter.text('Seat label (exact match).'),
    seat_guid: filter.text('Seat GUID of the seating plan (exact match).'),
    blocked: filter.bool('Only blocked (`true`) or only unblocked (`false`) seats.'),
    is_available: filter.bool(
      'Only available (`true`: not blocked, not sold, not in a live cart, not bound to a voucher) or only ' +
        'unavailable (`false`) seats.',
    ),
  },
  ordering: ['id'],
  expand: Object.keys(EXPANDABLE),
};

/** Expansions of a seat detail. */
export const SEAT_DETAIL_FILTERS: ListFiltersSpec = { expand: Object.keys(EXPANDABLE) };

/**
 * Checks `?expand=` against the credential (compat §3.18: order and cart positions need `event.orders:read`, the
 * voucher `event.vouchers:read`).
 * @returns the expansions asked for
 * @throws PermissionDenied when `expand` names an object the credential may not read
 */
export function checkExpand(filters: QueryFilters, access: RequestAccess): Set<string> {
  const wanted = filters.expand(Object.keys(EXPANDABLE));
  for (const name of wanted) {
    if (!access.eventPermissions?.has(EXPANDABLE[name])) throw new PermissionDenied();
  }
  return wanted;
}
