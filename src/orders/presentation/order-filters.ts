import { filter, ListFiltersSpec, QueryParamDoc } from '../../common/http/list-filters';
import { MAX_FILTER_LENGTH } from '../../common/listing/query-filters';
import { LIMITS } from '../../config/limits';
import type { OrderStatus } from '../entities/order.entity';
import { ORDER_EXACT_FILTER_DOCS, POSITION_EXACT_FILTER_DOCS } from './order-exact-filters';

/** Order statuses as filters take them: pending, paid, expired, canceled. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['n', 'p', 'e', 'c'];

const SHOW_CANCELED: Record<string, QueryParamDoc> = {
  include_canceled_positions: filter.bool('`true` also shows canceled positions.'),
  include_canceled_fees: filter.bool('`true` also shows canceled fees.'),
};

/** Repeatable text parameters (`?exclude=a&exclude=b`). */
function texts(description: string): QueryParamDoc {
  return {
    schema: {
      type: 'array',
      items: { type: 'string', maxLength: MAX_FILTER_LENGTH },
      maxItems: LIMITS.filterValues,
    },
    style: 'form',
    explode: true,
    description,
  };
}

/** `include` / `exclude` of order reads (pretix `OrderSerializer`; see `order-field-mask.ts`). */
const FIELD_MASK: Record<string, QueryParamDoc> = {
  include: texts(
    'Repeatable. Only these fields: a top-level name (`code`, `positions`) or a child of `positions`, `fees`, `payments`, `refunds`, `invoice_address` (`positions.secret`); a nested field without a named child is dropped. Unknown names select nothing.',
  ),
  exclude: texts(
    'Repeatable, applied after `include`. Drops a field (`payments`) or a child of `positions`, `fees`, `payments`, `refunds`, `invoice_address` (`positions.downloads`). Unknown names are ignored.',
  ),
};

/** `pdf_data` of the event's order and position reads (pretix: not on organizer-wide lists). */
export const PDF_DATA: Record<string, QueryParamDoc> = {
  pdf_data: filter.bool(
    "`true`: each position carries `pdf_data`, the text variables of pretix's ticket layouts for it and `images` (key -> URL of `orderpositions/{id}/pdf_image/{key}/`, or null). Any other value: no `pdf_data`.",
  ),
};

/** Query parameters of an order's detail (`E/orders/{code}/`). */
export const ORDER_DETAIL_FILTERS: ListFiltersSpec = {
  filters: { ...SHOW_CANCELED, ...FIELD_MASK, ...PDF_DATA },
};

/** Query parameters of the organizer-wide order list `O/orders/` (compat §4.4). */
export const ORGANIZER_ORDER_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    status: filter.choice(ORDER_STATUSES, 'Order status: `n` pending, `p` paid, `e` expired, `c` canceled.'),
    code: filter.text('Order code (case-insensitive exact match).'),
    email: filter.text('Customer email address (case-insensitive exact match).'),
    locale: filter.text('Order locale, e.g. `en`.'),
    testmode: filter.bool('Only test-mode (`true`) or only live (`false`) orders.'),
    require_approval: filter.bool('Only orders that do (`true`) or do not (`false`) require approval.'),
    modified_since: filter.datetime('Orders modified at or after this time (pass back `X-Page-Generated`).'),
    created_since: filter.datetime('Orders placed at or after this time.'),
    created_before: filter.datetime('Orders placed before this time.'),
    subevent_after: filter.datetime(
      'Orders with a position (canceled ones too) on a date of the series that ends after this time (a date without end: that starts after it).',
    ),
    subevent_before: filter.datetime(
      'Orders with a position (canceled ones too) on a date of the series that starts before this time.',
    ),
    ...ORDER_EXACT_FILTER_DOCS,
    ...SHOW_CANCELED,
    ...FIELD_MASK,
  },
  ordering: ['datetime', 'code', 'status', 'last_modified', 'cancellation_date'],
};

/** Query parameters of `E/orders/`: those of `O/orders/` plus `pdf_data`. */
export const ORDER_LIST_FILTERS: ListFiltersSpec = {
  filters: { ...ORGANIZER_ORDER_LIST_FILTERS.filters, ...PDF_DATA },
  ordering: ORGANIZER_ORDER_LIST_FILTERS.ordering,
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
    ...POSITION_EXACT_FILTER_DOCS,
    ...POSITION_CANCELED_FILTERS,
  },
  ordering: ['id', 'positionid'],
};

/** Query parameters of `E/orderpositions/`: the shared filters plus `pdf_data` (pretix: event lists only). */
export const EVENT_POSITION_LIST_FILTERS: ListFiltersSpec = {
  filters: { ...POSITION_LIST_FILTERS.filters, ...PDF_DATA },
  ordering: POSITION_LIST_FILTERS.ordering,
};

/** Query parameters of `E/orderpositions/{id}/`. */
export const POSITION_DETAIL_FILTERS: ListFiltersSpec = {
  filters: { ...POSITION_CANCELED_FILTERS, ...PDF_DATA },
};

/** Query parameters of `O/orderpositions/`: those of the event list plus `event`. */
export const ORGANIZER_POSITION_LIST_FILTERS: ListFiltersSpec = {
  filters: {
    event: filter.text('Slug of the event (exact match).'),
    ...POSITION_LIST_FILTERS.filters,
  },
  ordering: POSITION_LIST_FILTERS.ordering,
};
