import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** One exported gift card (money as strings). */
export interface GiftCardExportRow {
  id: number;
  secret: string;
  issuance: Date;
  value: string;
  currency: string;
  testmode: boolean;
  expires: Date | null;
  conditions: string | null;
}

/**
 * The gift card context's read for the `giftcardlist` export (issue 13): the cards an organizer issued, in
 * batches by id (keyset, one statement per batch).
 */
@Injectable()
export class GiftCardExportRows {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Batches of the organizer's gift cards (test mode ones only when `testmode`), in id order. */
  async *cards(
    organizerId: number,
    testmode: boolean,
    batchSize = 2000,
  ): AsyncGenerator<GiftCardExportRow[]> {
    let after = 0;
    for (;;) {
      const rows: GiftCardExportRow[] = await this.db.query(
        `SELECT id, secret, issuance, value::text AS value, currency, testmode, expires, conditions
           FROM giftcard WHERE issuer_id = $1 AND testmode = $2 AND id > $3 ORDER BY id LIMIT $4`,
        [organizerId, testmode, after, batchSize],
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].id;
    }
  }
}
