import { filter, QueryParamDoc } from '../../common/http/list-filters';
import { ValidationFailed } from '../../common/errors';
import { QueryFilters } from '../../common/listing/query-filters';
import type { ExactWhere, OrderExactWhere, PositionExactWhere } from './order-exact-filters.queries';

/** Order status codes the `status__in` filters take: pending, paid, expired, canceled (pretix). */
const STATUS_CODES = ['n', 'p', 'e', 'c'] as const;

/** A comma-separated list of order status codes (`status__in=n,p`), as OpenAPI describes it. */
function statusCodes(description: string): QueryParamDoc {
  return {
    schema: {
      type: 'array',
      items: { type: 'string', enum: [...STATUS_CODES] },
      maxItems: STATUS_CODES.length,
    },
    style: 'form',
    explode: false,
    description,
  };
}

const STATUS_IN_TEXT =
  'Comma-separated order statuses, any of them: `n` pending, `p` paid, `e` expired, `c` canceled (case-insensitive).';

/** The exact filters both order lists take (issue 27 §6, README "Exact filters"); each is served by an index. */
const SHARED_DOCS: Record<string, QueryParamDoc> = {
  attendee_name: filter.text(
    'Attendee name as `attendee_name` shows it (case-insensitive exact match, whitespace kept).',
  ),
  customer: filter.text('Identifier of the customer account the order belongs to (exact match).'),
  item__in: filter.ints('Comma-separated product ids, any of them.'),
  datetime_since: filter.datetime("Orders placed (the order's `datetime`) at or after this time."),
  datetime_until: filter.datetime("Orders placed (the order's `datetime`) at or before this time."),
};

/** Exact filters of the order lists added by issue 27 §6 (`email` is pretix's, documented with the list). */
export const ORDER_EXACT_FILTER_DOCS: Record<string, QueryParamDoc> = {
  attendee_email: filter.text(
    'Orders with a position (canceled ones too) with this attendee e-mail address (case-insensitive exact match).',
  ),
  ...SHARED_DOCS,
  attendee_name: filter.text(
    'Orders with a position (canceled ones too) whose attendee name, as `attendee_name` shows it, is this (case-insensitive exact match).',
  ),
  secret: filter.text('Orders with a position (canceled ones too) with this ticket secret (exact match).'),
  item__in: filter.ints(
    'Comma-separated product ids: orders with a position (canceled ones too) of any of them.',
  ),
  status__in: statusCodes(STATUS_IN_TEXT),
};

/** Exact filters of the position lists added by issue 27 §6 (`attendee_email`, `secret` are pretix's). */
export const POSITION_EXACT_FILTER_DOCS: Record<string, QueryParamDoc> = {
  email: filter.text("E-mail address of the position's order (case-insensitive exact match)."),
  ...SHARED_DOCS,
  attendee_name: filter.text(
    'Attendee name as `attendee_name` shows it (case-insensitive exact match); add-ons of a position with that name too (pretix).',
  ),
  customer: filter.text("Identifier of the customer account the position's order belongs to (exact match)."),
  order__status__in: statusCodes(`${STATUS_IN_TEXT} Of the position's order (pretix).`),
  status__in: statusCodes(`${STATUS_IN_TEXT} Of the position's order: the same as \`order__status__in\`.`),
  datetime_since: filter.datetime('Positions of orders placed (`datetime`) at or after this time.'),
  datetime_until: filter.datetime('Positions of orders placed (`datetime`) at or before this time.'),
};

/**
 * Order status codes of a comma-separated parameter (case-insensitive, duplicates dropped); `undefined` when absent
 * or empty.
 * @throws ValidationFailed `{"<name>": ["Select a valid choice. x is not one of the available choices."]}`
 */
function statusList(filters: QueryFilters, name: string): string[] | undefined {
  const raw = filters.str(name);
  if (raw === undefined) return undefined;
  const codes = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter((s) => s !== ''),
    ),
  ];
  const bad = codes.find((c) => !(STATUS_CODES as readonly string[]).includes(c));
  if (bad !== undefined) {
    throw ValidationFailed.field(name, `Select a valid choice. ${bad} is not one of the available choices.`);
  }
  return codes.length > 0 ? codes : undefined;
}

/**
 * Product ids of `item__in`; `undefined` when absent or empty.
 * @throws ValidationFailed above `LIMITS.filterValues` ids or for one that is no whole number
 */
function itemList(filters: QueryFilters): number[] | undefined {
  const items = filters.intList('item__in');
  return items && items.length > 0 ? items : undefined;
}

/** The filters both lists parse, in this order (the first malformed one answers 400). */
function sharedWhere(filters: QueryFilters, organizerId: number): ExactWhere {
  const attendeeName = filters.str('attendee_name');
  const customer = filters.str('customer');
  return {
    attendeeName,
    customer: customer === undefined ? undefined : { organizerId, identifier: customer },
    items: itemList(filters),
    datetimeSince: filters.datetime('datetime_since'),
    datetimeUntil: filters.datetime('datetime_until'),
  };
}

/**
 * The exact filters of an order list (`E/orders/`, `O/orders/`) of the organizer `organizerId`, parsed.
 * @throws ValidationFailed (400) naming the parameter: a text over 200 characters, a product id that is no whole
 *   number, a status code not among `n,p,e,c`, a datetime that is not ISO 8601
 */
export function orderExactWhere(filters: QueryFilters, organizerId: number): OrderExactWhere {
  return {
    attendeeEmail: filters.str('attendee_email'),
    ...sharedWhere(filters, organizerId),
    secret: filters.str('secret'),
    statuses: statusList(filters, 'status__in'),
  };
}

/**
 * The exact filters of a position list (`E/orderpositions/`, `O/orderpositions/`) of the organizer `organizerId`,
 * parsed (`attendee_email`, `secret` are parsed with the list's own filters). `order__status__in` and `status__in`
 * both given: positions whose order status is in both.
 * @throws ValidationFailed (400) naming the parameter, as {@link orderExactWhere}
 */
export function positionExactWhere(filters: QueryFilters, organizerId: number): PositionExactWhere {
  const email = filters.str('email');
  const shared = sharedWhere(filters, organizerId);
  const pretix = statusList(filters, 'order__status__in');
  const ours = statusList(filters, 'status__in');
  const statuses = pretix && ours ? pretix.filter((s) => ours.includes(s)) : (pretix ?? ours);
  return { email, ...shared, statuses };
}
