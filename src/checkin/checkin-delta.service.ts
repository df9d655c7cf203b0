import { ValidationFailed } from '../common/errors';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../auth/principal';
import { ParentNotFound } from '../common/errors';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import {
  CheckinPositionJson,
  CheckinPositions,
  PrintRequest,
  PositionsDelta,
} from '../orders/checkin-seam/checkin-positions';
import type { Event } from '../organizers/event.entity';
import { CheckinDeltaQueries } from './checkin-delta.queries';
import { CheckinListsService, MIN_SCANNER_SEARCH, scopeOf } from './checkin-lists.service';
import { decodeDeltaCursor, DeltaCursor, encodeDeltaCursor } from './delta-cursor';

/** A list's positions page or delta page, and the cursor to pass back (header `X-Delta-Cursor`). */
export type PositionsOrDelta =
  | { kind: 'page'; page: Paginated<CheckinPositionJson>; cursor: string }
  | { kind: 'delta'; delta: PositionsDelta; cursor: string; more: boolean };

/**
 * `E/checkinlists/{list}/positions/` with the scanners' delta sync (README "Delta sync for scanners").
 * Without `changed_since`: the list as before (compat §3.21), plus a cursor taken before the page is read (so a
 * full sync followed by deltas from it misses nothing). With `changed_since=<cursor>`: the positions changed since
 * it (position, order, answers, print logs, scans on this list), those the list with the request's other filters
 * shows as it shows them, the ids of the others, the secrets revoked or (un)blocked since, and the next cursor.
 * Gap-free: changes are handed out only below the watermark `pg_snapshot_xmin(pg_current_snapshot())`
 * (architecture.md "Change feed order"). Statements: list with watermark 1, page 1-2 / list 1, delta 1-2.
 */
@Injectable()
export class CheckinPositionsSync {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly lists: CheckinListsService,
    private readonly positions: CheckinPositions,
    private readonly queries: CheckinDeltaQueries,
  ) {}

  /**
   * The page or delta page of list `listId` (`deltaSize`: positions per delta page; `print`: `pdf_data` on the
   * plain page, not on a delta).
   * @throws ParentNotFound for a list not of the event
   * @throws ValidationFailed for a malformed filter or `changed_since`
   */
  async list(
    event: Event,
    principal: Principal,
    listId: number,
    filters: QueryFilters,
    page: PageRequest,
    deltaSize: number,
    print?: PrintRequest,
  ): Promise<PositionsOrDelta> {
    const raw = filters.str('changed_since');
    const reader = principal.eventPermissions(event.organizerId, event.id).has('event.orders:read');
    const search = filters.str('search');
    const blind = !reader && (search === undefined || search.length < MIN_SCANNER_SEARCH);
    if (raw === undefined) {
      const found = await this.queries.listWithWatermark(this.db, listId);
      if (!found || found.list.eventId !== event.id) throw new ParentNotFound();
      const cursor = encodeDeltaCursor({ list: listId, lo: found.watermark, hi: null, after: 0 });
      const result = blind
        ? Paginated.empty<CheckinPositionJson>(page)
        : await this.positions.page(scopeOf(found.list), filters, page, true, print);
      return { kind: 'page', page: result, cursor };
    }
    if (page.cursor) throw ValidationFailed.field('cursor', 'Use either cursor or changed_since, not both.');
    const from = decodeDeltaCursor(raw, listId);
    const scope = await this.lists.scope(undefined, event, listId);
    if (blind) {
      // A check-in-only credential sees positions only by search (compat §3.21): nothing, and the same cursor.
      const empty = {
        hi: from.hi ?? from.lo,
        count: 0,
        results: [],
        removed: [],
        revoked: [],
        blocked: [],
        lastId: null,
      };
      return { kind: 'delta', delta: empty, cursor: raw, more: false };
    }
    const delta = await this.positions.delta(
      scope,
      filters,
      { lo: from.lo, hi: from.hi, after: from.after, size: deltaSize, withSecrets: from.after === 0 },
      (lo, hi) => this.queries.changedPositions(listId, lo, hi),
    );
    const next: DeltaCursor =
      delta.lastId === null
        ? { list: listId, lo: delta.hi, hi: null, after: 0 }
        : { list: listId, lo: from.lo, hi: delta.hi, after: delta.lastId };
    return { kind: 'delta', delta, cursor: encodeDeltaCursor(next), more: delta.lastId !== null };
  }
}
