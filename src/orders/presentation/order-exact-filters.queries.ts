import type { SelectQueryBuilder } from 'typeorm';
import type { OrderPosition } from '../entities/order-position.entity';
import type { Order } from '../entities/order.entity';

/**
 * SQL: the attendee name the API shows of the position aliased `alias` (`nameFromParts`), lower-cased: the
 * expression of the index `ix_order_position_attendee_name_ci` (migration `OrderExactFilters`), so a filter
 * written with it is an index lookup.
 */
export function attendeeNameCi(alias: string): string {
  return `lower(attendee_name_of(${alias}.attendee_name_parts))`;
}

/** A customer account filter: the customer's identifier within its organizer (index `ix_orders_organizer_customer`). */
export interface CustomerFilter {
  organizerId: number;
  identifier: string;
}

/**
 * The exact filters of issue 27 §6 shared by the order and position lists, parsed; absent ones are `undefined`.
 * Text values compare as the fields below say; each is served by an index (README "Exact filters").
 */
export interface ExactWhere {
  /** Attendee e-mail, case-insensitive. */
  attendeeEmail?: string;
  /** Attendee name as shown (`attendee_name`), case-insensitive. */
  attendeeName?: string;
  /** Customer account identifier (exact). */
  customer?: CustomerFilter;
  /** Product ids (`item__in`, on orders also `item`). */
  items?: number[];
  /** Order statuses among `n`, `p`, `e`, `c`. */
  statuses?: string[];
  /** The order's `datetime` at or after this time. */
  datetimeSince?: Date;
  /** The order's `datetime` at or before this time. */
  datetimeUntil?: Date;
}

/** Filters of the order lists besides {@link ExactWhere}: a ticket secret of one of the order's positions. */
export interface OrderExactWhere extends ExactWhere {
  /** Ticket secret of a position of the order (exact, case-sensitive). */
  secret?: string;
}

/** Filters of the position lists besides {@link ExactWhere}: the order's e-mail. */
export interface PositionExactWhere extends ExactWhere {
  /** E-mail of the position's order, case-insensitive. */
  email?: string;
}

/**
 * The exact filters on an order query aliased `o`. Filters on positions (attendee, ticket secret, product) keep the
 * orders having at least one such position, canceled positions included (as pretix's `item` filter on orders).
 * Parameters are prefixed `x` so they never meet the list's own.
 */
export function applyOrderExactWhere(qb: SelectQueryBuilder<Order>, where: OrderExactWhere): void {
  const withPosition = (condition: string, params: Record<string, unknown>) =>
    qb.andWhere(`o.id IN (SELECT xp.order_id FROM order_position xp WHERE ${condition})`, params);
  if (where.attendeeEmail !== undefined) {
    withPosition('lower(xp.attendee_email) = lower(:xAttendeeEmail)', {
      xAttendeeEmail: where.attendeeEmail,
    });
  }
  if (where.attendeeName !== undefined) {
    withPosition(`${attendeeNameCi('xp')} = lower(:xAttendeeName)`, { xAttendeeName: where.attendeeName });
  }
  if (where.secret !== undefined) withPosition('xp.secret = :xSecret', { xSecret: where.secret });
  if (where.items !== undefined) withPosition('xp.item_id = ANY(:xItems)', { xItems: where.items });
  if (where.customer !== undefined) {
    qb.andWhere('o.organizer_id = :xCustomerOrg AND o.customer = :xCustomer', {
      xCustomerOrg: where.customer.organizerId,
      xCustomer: where.customer.identifier,
    });
  }
  if (where.statuses !== undefined) qb.andWhere('o.status = ANY(:xStatuses)', { xStatuses: where.statuses });
  if (where.datetimeSince !== undefined) {
    qb.andWhere('o.datetime >= :xDatetimeSince', { xDatetimeSince: where.datetimeSince });
  }
  if (where.datetimeUntil !== undefined) {
    qb.andWhere('o.datetime <= :xDatetimeUntil', { xDatetimeUntil: where.datetimeUntil });
  }
}

/**
 * The exact filters on a position query aliased `p` (`attendee_email` is the list's own filter, see
 * `order-list.queries.ts`); `orderScope` bounds the orders the order filters look at
 * (`event_id = :event` or `organizer_id = :org`). `attendee_name` keeps, as in pretix, the positions with that
 * name and the add-ons of positions with that name; order filters (`email`, `customer`, statuses, datetimes) keep
 * the positions of matching orders.
 */
export function applyPositionExactWhere(
  qb: SelectQueryBuilder<OrderPosition>,
  where: PositionExactWhere,
  orderScope: string,
): void {
  const ofOrders = (condition: string, params: Record<string, unknown>) =>
    qb.andWhere(
      `p.order_id IN (SELECT xo.id FROM orders xo WHERE xo.${orderScope} AND ${condition})`,
      params,
    );
  if (where.attendeeName !== undefined) {
    // Two index lookups (the name, then the add-ons of the named positions by `addon_to_id`), joined on `p.id`.
    qb.andWhere(
      `p.id IN (SELECT xp.id FROM order_position xp WHERE ${attendeeNameCi('xp')} = lower(:xAttendeeName)
        UNION ALL SELECT xa.id FROM order_position xn JOIN order_position xa ON xa.addon_to_id = xn.id
         WHERE ${attendeeNameCi('xn')} = lower(:xAttendeeName))`,
      { xAttendeeName: where.attendeeName },
    );
  }
  if (where.items !== undefined) qb.andWhere('p.item_id = ANY(:xItems)', { xItems: where.items });
  if (where.email !== undefined) ofOrders('lower(xo.email) = lower(:xEmail)', { xEmail: where.email });
  if (where.customer !== undefined) {
    ofOrders('xo.organizer_id = :xCustomerOrg AND xo.customer = :xCustomer', {
      xCustomerOrg: where.customer.organizerId,
      xCustomer: where.customer.identifier,
    });
  }
  if (where.statuses !== undefined) ofOrders('xo.status = ANY(:xStatuses)', { xStatuses: where.statuses });
  const range: string[] = [];
  const bounds: Record<string, Date> = {};
  if (where.datetimeSince !== undefined) {
    range.push('xo.datetime >= :xDatetimeSince');
    bounds.xDatetimeSince = where.datetimeSince;
  }
  if (where.datetimeUntil !== undefined) {
    range.push('xo.datetime <= :xDatetimeUntil');
    bounds.xDatetimeUntil = where.datetimeUntil;
  }
  if (range.length > 0) ofOrders(range.join(' AND '), bounds);
}
