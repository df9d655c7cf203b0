import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OrderBulkReadQueries, type OrderExportQuery, type OrderExportRow } from './order-bulk-reads.queries';

export type { OrderExportQuery, OrderExportRow } from './order-bulk-reads.queries';

/**
 * The orders context's read for exports (compat §3.7; `orderlist`, `checkinlist`): order positions with their
 * order and the order's confirmed payment total, in batches by position id (keyset pagination, one statement per
 * batch), so that any number of positions is read in bounded memory. Canceled positions are left out.
 */
@Injectable()
export class OrderExportRows {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: OrderBulkReadQueries,
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
