import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrderListQueries } from './order-list.queries';

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
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: OrderListQueries,
  ) {}

  /** Batches of rows in position id order. */
  async *positions(q: OrderExportQuery): AsyncGenerator<OrderExportRow[]> {
    const size = q.batchSize ?? 2000;
    let after = 0;
    for (;;) {
      const rows = await this.queries.exportBatch(this.db.manager, q, after, size);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < size) return;
      after = rows[rows.length - 1].position_id;
    }
  }
}
