import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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

/**
 * The orders context's read for exports (issue 13 `orderlist`, `checkinlist`): order positions with their order
 * and the order's confirmed payment total, in batches by position id (keyset pagination, one statement per
 * batch), so that any number of positions is read in bounded memory. Canceled positions are left out.
 */
@Injectable()
export class OrderExportRows {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Batches of rows in position id order. */
  async *positions(q: OrderExportQuery): AsyncGenerator<OrderExportRow[]> {
    const size = q.batchSize ?? 2000;
    let after = 0;
    for (;;) {
      const rows: OrderExportRow[] = await this.db.query(
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
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1].position_id;
    }
  }
}
