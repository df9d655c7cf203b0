import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { GiftCardExportRow, GiftCardQueries } from './giftcard.queries';

export type { GiftCardExportRow } from './giftcard.queries';

/**
 * The gift card context's read for the `giftcardlist` export (compat §3.7): the cards an organizer issued, in
 * batches by id (keyset, one statement per batch).
 */
@Injectable()
export class GiftCardExportRows {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly queries: GiftCardQueries,
  ) {}

  /** Batches of the organizer's gift cards (test mode ones only when `testmode`), in id order. */
  async *cards(
    organizerId: number,
    testmode: boolean,
    batchSize = 2000,
  ): AsyncGenerator<GiftCardExportRow[]> {
    let after = 0;
    for (;;) {
      const rows = await this.queries.exportBatch(this.db.manager, organizerId, testmode, after, batchSize);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].id;
    }
  }
}
