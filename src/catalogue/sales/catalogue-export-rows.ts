import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** One exported voucher (money as strings). */
export interface VoucherExportRow {
  id: number;
  code: string;
  max_usages: number;
  redeemed: number;
  valid_until: Date | null;
  block_quota: boolean;
  price_mode: string;
  value: string | null;
  item_id: number | null;
  variation_id: number | null;
  quota_id: number | null;
  subevent_id: number | null;
  tag: string | null;
  comment: string | null;
}

/**
 * The catalogue's reads for exports (issue 13 `voucherlist`, `quotas`): an event's vouchers in batches by id
 * (keyset, one statement per batch) and the ids of its quotas.
 */
@Injectable()
export class CatalogueExportRows {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Batches of the event's vouchers in id order. */
  async *vouchers(eventId: number, batchSize = 2000): AsyncGenerator<VoucherExportRow[]> {
    let after = 0;
    for (;;) {
      const rows: VoucherExportRow[] = await this.db.query(
        `SELECT id, code, max_usages, redeemed, valid_until, block_quota, price_mode, value::text AS value,
                item_id, variation_id, quota_id, subevent_id, tag, comment
           FROM voucher WHERE event_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
        [eventId, after, batchSize],
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].id;
    }
  }

  /** Ids of the event's quotas, ascending. One statement. */
  async quotaIds(eventId: number): Promise<number[]> {
    const rows: { id: number }[] = await this.db.query(
      'SELECT id FROM quota WHERE event_id = $1 ORDER BY id',
      [eventId],
    );
    return rows.map((r) => r.id);
  }
}
