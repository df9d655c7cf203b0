import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CheckinExportRow, CheckinPositions, ListScope } from '../orders/checkin-seam/checkin-positions';
import { CheckinQueries } from './checkin.queries';

/**
 * The check-in context's read for the `checkinlist` export (compat §3.7): the list of an event, and the positions
 * it admits with their check-in state in bounded batches (asked from the orders seam {@link CheckinPositions}).
 */
@Injectable()
export class CheckinExport {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly positions: CheckinPositions,
    private readonly queries: CheckinQueries,
  ) {}

  /** The list with this id of this event, or null. One statement. */
  async list(eventId: number, listId: number): Promise<(ListScope & { name: string }) | null> {
    return this.queries.exportList(this.db.manager, eventId, listId);
  }

  /** Batches of the list's positions with their last scan. */
  rows(list: ListScope, paidOnly: boolean, batchSize?: number): AsyncGenerator<CheckinExportRow[]> {
    return this.positions.exportBatches(list, paidOnly, batchSize);
  }
}
