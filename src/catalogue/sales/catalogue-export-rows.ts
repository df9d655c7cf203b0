import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { QuotaQueries } from '../quotas/quota.queries';
import { VoucherExportRow, VoucherQueries } from '../vouchers/voucher.queries';

export type { VoucherExportRow };

/**
 * The catalogue's reads for exports (compat §3.7; `voucherlist`, `quotas`): an event's vouchers in batches by id
 * (keyset, one statement per batch) and the ids of its quotas.
 */
@Injectable()
export class CatalogueExportRows {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly voucherQueries: VoucherQueries,
    private readonly quotaQueries: QuotaQueries,
  ) {}

  /** Batches of the event's vouchers in id order. */
  async *vouchers(eventId: number, batchSize = 2000): AsyncGenerator<VoucherExportRow[]> {
    let after = 0;
    for (;;) {
      const rows = await this.voucherQueries.exportBatch(this.db.manager, eventId, after, batchSize);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].id;
    }
  }

  /** Ids of the event's quotas, ascending. One statement. */
  async quotaIds(eventId: number): Promise<number[]> {
    const rows = await this.quotaQueries.eventQuotaIds(this.db.manager, eventId);
    return rows.map((r) => r.id);
  }
}
