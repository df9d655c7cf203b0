import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The orders and positions a scheduled e-mail rule addresses (compat §3.26), read for the sendmail-rules context so
 * that only orders names its tables. Order states of a rule: `p` paid, `e` expired, `c` canceled, and the pending
 * (`n`) sub-states `n__valid_if_pending`, `n__pending_overdue` (past its payment deadline), `n__pending_approval`,
 * `n__not_pending_approval_and_not_valid_if_pending`.
 */
export interface MailRecipientQuery {
  eventId: number;
  /** Rule states (above); unknown ones match nothing. */
  statuses: readonly string[];
  /** Only positions of these items; null: any item. */
  itemIds: readonly number[] | null;
  /** Only positions of these dates of a series; null: any (or no) date. */
  subeventIds: readonly number[] | null;
  /** Only orders placed up to this time (the rule's send time). */
  placedBefore: Date;
  /** Keyset paging: orders with a greater id only. */
  afterOrderId: number;
  /** Orders per page. */
  limit: number;
}

/** Which positions an order export reads. Dates are UTC instants (inclusive from, exclusive to). */
export interface OrderExportQuery {
  eventIds: readonly number[];
  /** Only paid orders (status `p`); otherwise every status. */
  paidOnly: boolean;
  /** Product ids; empty: every product. */
  itemIds: readonly number[];
  orderedFrom: Date | null;
  orderedBefore: Date | null;
  /** Rows per batch (bounded memory). */
  batchSize?: number;
}

/** One exported order position with its order (wire-like snake_case; money as strings). */
export interface OrderExportRow {
  event_id: number;
  order_code: string;
  order_status: string;
  order_email: string | null;
  order_datetime: Date;
  order_total: string;
  payment_amount: string;
  position_id: number;
  positionid: number;
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  price: string;
  tax_rate: string;
  attendee_name: string | null;
  attendee_email: string | null;
  canceled: boolean;
}

/** A position of a mail recipient page, with its order. */
export interface MailRecipientRow {
  order_id: number;
  code: string;
  secret: string;
  email: string | null;
  locale: string;
  address_name: Record<string, string> | null;
  position_id: number;
  attendee_email: string | null;
  attendee_name_parts: Record<string, string>;
}

/**
 * The orders context's bulk reads for other contexts, in keyset batches: export rows (`orderlist`, `checkinlist`)
 * and the recipients of scheduled e-mail rules (compat §3.26). Stateless; the SQL names only orders' tables.
 */
@Injectable()
export class OrderBulkReadQueries {
  /** One batch of export rows after position id `after` (one statement). */
  exportBatch(
    em: EntityManager,
    q: OrderExportQuery,
    after: number,
    size: number,
  ): Promise<OrderExportRow[]> {
    return em.query(
      `SELECT p.event_id, o.code AS order_code, o.status AS order_status, o.email AS order_email,
                o.datetime AS order_datetime, o.total::text AS order_total,
                coalesce((SELECT sum(pay.amount) FROM order_payment pay
                           WHERE pay.order_id = o.id AND pay.state IN ('confirmed', 'refunded')), 0)::text
                  AS payment_amount,
                p.id AS position_id, p.positionid, p.item_id, p.variation_id, p.subevent_id,
                p.price::text AS price, p.tax_rate::text AS tax_rate,
                nullif(coalesce(nullif(p.attendee_name_parts->>'_legacy', ''),
                         concat_ws(' ', nullif(p.attendee_name_parts->>'given_name', ''),
                                   nullif(p.attendee_name_parts->>'family_name', ''))), '') AS attendee_name,
                p.attendee_email, p.canceled
           FROM order_position p JOIN orders o ON o.id = p.order_id
          WHERE p.event_id = ANY($1::int[]) AND p.id > $2 AND NOT p.canceled
            AND ($3::boolean IS FALSE OR o.status = 'p')
            AND (cardinality($4::int[]) = 0 OR p.item_id = ANY($4::int[]))
            AND ($5::timestamptz IS NULL OR o.datetime >= $5)
            AND ($6::timestamptz IS NULL OR o.datetime < $6)
          ORDER BY p.id LIMIT $7`,
      [[...q.eventIds], after, q.paidOnly, [...q.itemIds], q.orderedFrom, q.orderedBefore, size],
    );
  }

  /**
   * The positions of the next mail recipients: orders of the event in one of `states` (conditions of
   * {@link ORDER_STATUS_SQL}) placed before `q.placedBefore`, after `q.afterOrderId`, at most `q.limit`
   * orders, with their active matching positions (one statement).
   */
  mailRecipientRows(em: EntityManager, q: MailRecipientQuery, states: string[]): Promise<MailRecipientRow[]> {
    return em.query(
      `WITH picked AS (
       SELECT o.id FROM orders o
        WHERE o.event_id = $1 AND o.datetime <= $2 AND o.id > $3 AND (${states.join(' OR ')})
          AND EXISTS (SELECT 1 FROM order_position p WHERE p.order_id = o.id AND NOT p.canceled
                        AND ($4::int[] IS NULL OR p.item_id = ANY($4))
                        AND ($5::int[] IS NULL OR p.subevent_id = ANY($5)))
        ORDER BY o.id LIMIT $6)
     SELECT o.id AS order_id, o.code, o.secret, o.email, o.locale, ia.name_parts AS address_name,
            p.id AS position_id, p.attendee_email, p.attendee_name_parts
       FROM picked x JOIN orders o ON o.id = x.id
       JOIN order_position p ON p.order_id = o.id AND NOT p.canceled
       LEFT JOIN invoice_address ia ON ia.order_id = o.id
      WHERE ($4::int[] IS NULL OR p.item_id = ANY($4)) AND ($5::int[] IS NULL OR p.subevent_id = ANY($5))
      ORDER BY o.id, p.positionid`,
      [
        q.eventId,
        q.placedBefore,
        q.afterOrderId,
        q.itemIds === null ? null : [...q.itemIds],
        q.subeventIds === null ? null : [...q.subeventIds],
        q.limit,
      ],
    );
  }
}
