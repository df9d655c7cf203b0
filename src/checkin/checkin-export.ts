import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CheckinExportRow, CheckinPositions, ListScope } from '../orders/checkin-seam/checkin-positions';

/**
 * The check-in context's read for the `checkinlist` export (issue 13): the list of an event, and the positions
 * it admits with their check-in state in bounded batches (asked from the orders seam {@link CheckinPositions}).
 */
@Injectable()
export class CheckinExport {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly positions: CheckinPositions,
  ) {}

  /** The list with this id of this event, or null. One statement. */
  async list(eventId: number, listId: number): Promise<(ListScope & { name: string }) | null> {
    const rows: (ListScope & { name: string })[] = await this.db.query(
      `SELECT id, event_id AS "eventId", all_products AS "allProducts", subevent_id AS "subeventId",
              include_pending AS "includePending", name
         FROM checkin_list WHERE id = $1 AND event_id = $2`,
      [listId, eventId],
    );
    return rows[0] ?? null;
  }

  /** Batches of the list's positions with their last scan. */
  rows(list: ListScope, paidOnly: boolean, batchSize?: number): AsyncGenerator<CheckinExportRow[]> {
    return this.positions.exportBatches(list, paidOnly, batchSize);
  }
}
