import { Injectable, Module } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { CheckinPositions } from '../orders/checkin-seam/checkin-positions';
import { CheckinSeamModule } from '../orders/checkin-seam/checkin-seam.module';
import type { CheckinChange } from './checkin-events.port';
import { CheckinStreamQueries, StreamEntryRow } from './checkin-stream.queries';

/**
 * One entry of a list's live stream (README "Live check-in stream"): what a scanner needs to update its offline
 * mirror. `seq` orders a list's entries (check-in ids and annulment numbers come from one sequence).
 */
export interface CheckinStreamEntry {
  seq: number;
  kind: 'checkin' | 'annulment';
  /** The scan; for an annulment, the scan that was annulled. */
  checkinId: number;
  listId: number;
  positionId: number;
  secret: string;
  order: string;
  type: 'entry' | 'exit';
  /** When the scan happened (UTC). */
  datetime: Date;
  forced: boolean;
  autoCheckedIn: boolean;
  /** The scanning device's number and its gate's id (null for team and OAuth tokens). */
  deviceId: number | null;
  gateId: number | null;
}

/** What a resumption replays: the entries after the given number, and whether more were left off. */
export interface StreamReplay {
  entries: CheckinStreamEntry[];
  /** More than `limit` entries followed the number: the client must resynchronise the list. */
  truncated: boolean;
  /** The highest number handed out so far (a number above it was never given to any client). */
  lastAllocated: number;
}

/**
 * The check-in context's reads for the live stream (sync context above): stream entries of a committed change
 * and of a resumption, with each ticket's secret and order code from the orders seam. Two statements each.
 */
@Injectable()
export class CheckinStreamReads {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly queries: CheckinStreamQueries,
    private readonly positions: CheckinPositions,
  ) {}

  /** The entries a committed change made (none when its rows are gone or were never stored). */
  async ofChange(change: CheckinChange): Promise<CheckinStreamEntry[]> {
    const rows =
      change.kind === 'checkins'
        ? await this.queries.checkins(this.db, change.checkinIds)
        : change.kind === 'scans'
          ? await this.queries.scansAfter(this.db, change.scans)
          : await this.queries.annulment(this.db, change.checkinId);
    return this.withTickets(rows);
  }

  /** Whether the list is of the event. */
  listOfEvent(eventId: number, listId: number): Promise<boolean> {
    return this.queries.listOfEvent(this.db, eventId, listId);
  }

  /** The list's entries numbered above `afterSeq`, in order, at most `limit` (see {@link StreamReplay}). */
  async replay(listId: number, afterSeq: number, limit: number): Promise<StreamReplay> {
    const rows = await this.queries.after(this.db, listId, afterSeq, limit + 1);
    const lastAllocated = await this.queries.lastAllocated(this.db);
    return {
      entries: await this.withTickets(rows.slice(0, limit)),
      truncated: rows.length > limit,
      lastAllocated,
    };
  }

  private async withTickets(rows: StreamEntryRow[]): Promise<CheckinStreamEntry[]> {
    if (rows.length === 0) return [];
    const refs = await this.positions.ticketRefs(
      this.db,
      rows.map((r) => r.position_id),
    );
    return rows.flatMap((r) => {
      const ref = refs.get(r.position_id);
      if (!ref) return [];
      return [
        {
          seq: Number(r.seq),
          kind: r.kind,
          checkinId: r.checkin_id,
          listId: r.list_id,
          positionId: r.position_id,
          secret: ref.secret,
          order: ref.order,
          type: r.type,
          datetime: new Date(r.datetime),
          forced: r.forced,
          autoCheckedIn: r.auto_checked_in,
          deviceId: r.device_id,
          gateId: r.gate_id,
        },
      ];
    });
  }
}

/** Provides {@link CheckinStreamReads} to the sync context (its stream and its publisher). */
@Module({
  imports: [CheckinSeamModule],
  providers: [CheckinStreamQueries, CheckinStreamReads],
  exports: [CheckinStreamReads],
})
export class CheckinStreamReadsModule {}
