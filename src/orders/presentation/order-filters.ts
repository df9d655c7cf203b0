import { filter, ListFiltersSpec, QueryParamDoc } from '../../common/http/list-filters';
import type { OrderStatus } from '../entities/order.entity';

/** Order statuses as filters take them: pending, paid, expired, canceled. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['n', 'p', 'e', 'c'];

const SHOW_CANCELED: Record<string, QueryParamDoc> = {
  include_canceled_positions: filter.bool('`true` also shows canceled positions.'),
  include_canceled_fees: filter.bool('`true` also shows canceled fees.'),
};

/** Query parameters of an order's detail (`E/orders/{code}/`). */
export const ORDER_DETAIL_FILTERS: ListFiltersSpec = { filters: SHOW_CANCELED };

/** Query parameters of the order lists (`E/orders/` and `O/orders/`, compat §4.4). */
export const ORDER_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    status: filter.choice(ORDER_STATUSES, 'Order status: `n` pending, `p` paid, `e` expired, `c` canceled.'),
    code: filter.text('Order code (case-insensitive exact match).'),
    email: filter.text('Customer email address (case-insensitive exact match).'),
    locale: filter.text('Order locale, e.g. `en`.'),
    testmode: filter.bool('Only test-mode (`true`) or only live (`false`) orders.'),
    require_approval: filter.bool('Only orders that do (`true`) or do not (`false`) require approval.'),
    modified_since: filter.datetime('Orders modified at or after this time (pass back `X-Page-Generated`).'),
    created_since: filter.datetime('Orders placed at or after this time.'),
    ...SHOW_CANCELED,
  },
  ordering: ['datetime', 'code', 'status', 'last_modified'],
};

/** `canceled` and `include_canceled_positions` of the order position list and detail. */
export const POSITION_CANCELED_FILTERS: Record<string, QueryParamDoc> = {
  canceled: filter.bool('Only canceled (`true`) or only not canceled (`false`) positions.'),
  include_canceled_positions: filter.bool(
    '`true` also shows canceled positions (when `canceled` is absent).',
  ),
};

/** Query parameters of the position list `E/orderpositions/` (compat §4.4). */
export const POSITION_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    order: filter.text("Code of the position's order (case-insensitive)."),
    order__status: filter.choice(
      ORDER_STATUSES,
      "Status of the position's order: `n` pending, `p` paid, `e` expired, `c` canceled.",
    ),
    item: filter.int("Id of the position's product."),
    variation: filter.int("Id of the position's variation."),
    addon_to: filter.int('Id of the position this one is an add-on to.'),
    voucher: filter.int('Id of the voucher the position used.'),
    attendee_email: filter.text('Attendee email address (case-insensitive exact match).'),
    secret: filter.text('Ticket secret (exact match).'),
    pseudonymization_id: filter.text('Pseudonymization id (exact match).'),
    ...POSITION_CANCELED_FILTERS,
  },
  ordering: ['id', 'positionid'],
};

/** Query parameters of `O/orderpositions/`: those of the event list plus `event`. */
export const ORGANIZER_POSITION_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    event: filter.text('Slug of the event (exact match).'),
    ...POSITION_LIST_FILTERS.filters,
  },
  ordering: POSITION_LIST_FILTERS.ordering,
};
