import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { ValidatedAnswer } from '../answers/answers.rules';
import { OrderPosition } from '../entities/order-position.entity';
import { AnswerQueries } from '../answers/answer.queries';
import { ListPositionExtras, OrderPresentation } from '../presentation/order-presentation.service';
import { PdfDataQueries } from '../presentation/pdf-data.queries';
import {
  pdfDataOf,
  PositionPrintFacts,
  PrintEvent,
  PrintQuestion,
  withPdfData,
} from '../presentation/pdf-data.rules';
import type { RelatedSpec } from '../../common/listing/page-query';
import { nameFromParts, OrderPositionJson, toOrderPositionJson } from '../presentation/order.presenter';
import { ChangedScans, CheckinDeltaFrameQueries, DeltaWindow } from './checkin-delta.queries';
import {
  CheckinExportRow,
  CheckinPositionWhere,
  CheckinSeamQueries,
  ListCountsFragments,
  ListScope,
  ListStatusRow,
} from './checkin-seam.queries';
import { RedeemLookupQueries, RedeemPosition } from './redeem-lookup.queries';

/** One page of a list's delta ({@link CheckinPositions.delta}). */
export interface PositionsDelta {
  /** The window's upper stamp (decimal bigint): where the next delta starts once this one is read to its end. */
  hi: string;
  /** How many positions changed in the window (shown or removed, all pages of the delta). */
  count: number;
  /** The changed positions the list shows, by id, as the list shows them. */
  results: CheckinPositionJson[];
  /** Ids of the changed positions the list (with its filters) does not show. */
  removed: number[];
  revoked: string[];
  blocked: { secret: string; blocked: boolean }[];
  /** The page's last position id when there is a next page (keyset), else null. */
  lastId: number | null;
}

export type { ChangedScans, DeltaWindow } from './checkin-delta.queries';
export type { CheckinExportRow, ListScope, ListStatusRow } from './checkin-seam.queries';
export type { RedeemPosition } from './redeem-lookup.queries';

/**
 * SEAM between orders and check-in: which order positions a check-in list admits, their counts and their redeem
 * state, for the check-in context, which passes a list as {@link ListScope} and asks through
 * {@link CheckinPositions}; it never reads orders' tables. The SQL (which also names the check-in tables
 * `checkin_list_item` and `checkin`) is in {@link CheckinSeamQueries} (test/table-ownership.spec.ts lists it).
 */

/**
 * `pdf_data=true` on a list's positions (pretix: only for credentials holding `event.orders:read`; the caller
 * decides): the event whose print facts the positions get.
 */
export interface PrintRequest {
  eventId: number;
  event: PrintEvent;
}

/** A position on a check-in list: the order position's wire form and `require_attention` (compat §3.21). */
export class CheckinPositionJson extends OrderPositionJson {
  /** The order asks staff to pay attention at check-in. */
  @ApiProperty({ type: 'boolean', description: 'The order asks staff to pay attention at check-in.' })
  require_attention!: boolean;
}

/** Order positions for the check-in context (see the file's comment). */
@Injectable()
export class CheckinPositions {
  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly presentation: OrderPresentation,
    private readonly answers: AnswerQueries,
    private readonly queries: CheckinSeamQueries,
    private readonly redeems: RedeemLookupQueries,
    private readonly deltaFrames: CheckinDeltaFrameQueries,
  ) {}

  /**
   * SQL of a list row `l`'s counts for the lists page (compat §3.20 `position_count`, `checkin_count`):
   * correlated subqueries over the event's positions ({@link CheckinSeamQueries.listCounts}).
   */
  listCountsSql(): ListCountsFragments {
    return this.queries.listCounts();
  }

  /**
   * One page of the positions a list admits (or any of several lists: the RPC search), with the list's (lists')
   * check-ins only (compat §3.21). `ignore_status`
   * admits any status; `search` (3+ characters) matches the secret's start, the order code, attendee name and
   * e-mail; `has_checkin`; `item`, `variation` (and `__in`), `order`, `secret`, `attendee_name`,
   * `order__status` (and `__in`). Ordering as the spec lists (default `attendee_name,positionid`); the attendee
   * name falls back to the parent position's. One statement; with `separateCount` two at once (page and count:
   * the page's costly values are then computed for its rows only, what a list of 10,000s of tickets needs).
   * @throws ValidationFailed for a malformed filter value
   */
  async page(
    listOrLists: ListScope | readonly ListScope[],
    filters: QueryFilters,
    page: PageRequest,
    separateCount = false,
    print?: PrintRequest,
  ): Promise<Paginated<CheckinPositionJson>> {
    const lists: readonly ListScope[] = 'id' in listOrLists ? [listOrLists] : listOrLists;
    if (lists.length === 0) return Paginated.empty(page);
    const ignoreStatus = filters.bool('ignore_status') === true;
    const where = parseWhere(filters);
    const related = this.presentation.listPositionRelated(lists.map((l) => l.id));
    if (print) {
      const now = new Date();
      return this.queries.positionsPage(
        this.db,
        lists,
        ignoreStatus,
        where,
        filters,
        page,
        this.withPrintFacts(related, print.eventId),
        (p, r) => {
          const json = toListPositionJson(p, r);
          return withPdfData(json, pdfDataOf(json, r.pdf, print.event, r.questions, now));
        },
        separateCount,
      );
    }
    return this.queries.positionsPage(
      this.db,
      lists,
      ignoreStatus,
      where,
      filters,
      page,
      related,
      toListPositionJson,
      separateCount,
    );
  }

  /** `related` plus each position's print facts and the event's questions (pdf_data; same statement). */
  private withPrintFacts(
    related: RelatedSpec<ListPositionExtras>,
    eventId: number,
  ): RelatedSpec<ListPositionExtras & { pdf: PositionPrintFacts; questions: PrintQuestion[] }> {
    return {
      ...related,
      pdf: { sql: PdfDataQueries.positionFacts('p'), read: (v) => v as PositionPrintFacts },
      questions: { sql: PdfDataQueries.eventQuestions(eventId), read: (v) => (v as PrintQuestion[]) ?? [] },
    };
  }

  /**
   * One position of a list's positions page (pretix `GET …/checkinlists/{list}/positions/{id}/`): the position
   * `positionId` when the list, with the same filters as {@link page} (`ignore_status`, `search`, `has_checkin`,
   * …), shows it, in the same shape. One statement.
   * @throws NotFound when it does not
   * @throws ValidationFailed for a malformed filter value
   */
  async onList(
    list: ListScope,
    filters: QueryFilters,
    positionId: number,
    print?: PrintRequest,
  ): Promise<CheckinPositionJson> {
    const ignoreStatus = filters.bool('ignore_status') === true;
    const where = parseWhere(filters);
    if (print) {
      const now = new Date();
      return this.queries.positionOnLists(
        this.db,
        [list],
        ignoreStatus,
        where,
        positionId,
        this.withPrintFacts(this.presentation.listPositionRelated(list.id), print.eventId),
        (p, r) => {
          const json = toListPositionJson(p, r);
          return withPdfData(json, pdfDataOf(json, r.pdf, print.event, r.questions, now));
        },
      );
    }
    return this.queries.positionOnLists(
      this.db,
      [list],
      ignoreStatus,
      where,
      positionId,
      this.presentation.listPositionRelated(list.id),
      toListPositionJson,
    );
  }

  /**
   * One page of a list's delta (the scanners' sync, README "Delta sync for scanners"): the positions of the
   * list's event changed in the window (the position, its order, answers or print logs: `changed_xid`, kept by
   * triggers; its scans on the list: `changedScans`, the check-in context's fragment), split into those the list
   * with `filters` shows (presented as {@link page} presents them) and the others (`removed`: a scanner drops
   * them), plus the secrets revoked or (un)blocked in the window with `window.withSecrets`. Two statements (the
   * frame, then the shown positions; one when nothing changed).
   * @throws ValidationFailed for a malformed filter value
   */
  async delta(
    list: ListScope,
    filters: QueryFilters,
    window: DeltaWindow,
    changedScans: ChangedScans,
  ): Promise<PositionsDelta> {
    const ignoreStatus = filters.bool('ignore_status') === true;
    const where = parseWhere(filters);
    const frame = await this.deltaFrames.frame(this.db, list.eventId, window, changedScans);
    const more = frame.ids.length > window.size;
    const ids = more ? frame.ids.slice(0, window.size) : frame.ids;
    const results =
      ids.length === 0
        ? []
        : await this.queries.positionsWithIds(
            this.db,
            list,
            ignoreStatus,
            where,
            ids,
            this.presentation.listPositionRelated(list.id),
            toListPositionJson,
          );
    const shown = new Set(results.map((r) => r.id));
    return {
      hi: frame.hi,
      count: frame.count,
      results,
      removed: ids.filter((id) => !shown.has(id)),
      revoked: frame.revoked,
      blocked: frame.blocked,
      lastId: more ? ids[ids.length - 1] : null,
    };
  }

  /** Per product counts of the positions a list admits, checked in, and inside now (one statement). */
  async status(em: EntityManager, list: ListScope): Promise<ListStatusRow[]> {
    return this.queries.status(em, list);
  }

  /**
   * The event's position with this secret (or, when `byId`, this id; else the one whose revoked secret this is,
   * marked `revoked`), with its order and add-ons, row-locked
   * until the caller's transaction ends, so that two scans of one ticket are decided one after the other
   * (compat §3.21: exactly one `ok`). Null when there is none.
   */
  async forRedeem(
    em: EntityManager,
    eventId: number,
    identifier: string,
    byId: boolean,
  ): Promise<RedeemPosition | null> {
    const id = byId && /^\d{1,9}$/.test(identifier) ? Number(identifier) : null;
    return this.redeems.forRedeem(em, eventId, identifier, id);
  }

  /**
   * The redeem lookup of a batch of scans (compat §3.21, as {@link forRedeem} by secret for each): per event and
   * scanned secret the position, row-locked (all in one statement, in id order) until the caller's transaction
   * ends. The current secret wins over a revoked one, a newer revocation over an older one.
   */
  async forRedeemMany(
    em: EntityManager,
    eventIds: readonly number[],
    secrets: readonly string[],
  ): Promise<Map<number, Map<string, RedeemPosition>>> {
    const out = new Map<number, Map<string, RedeemPosition>>();
    if (eventIds.length === 0 || secrets.length === 0) return out;
    const best = new Map<string, number>();
    for (const { scanned, rank, ...row } of await this.redeems.forRedeemMany(em, eventIds, secrets)) {
      const key = `${row.eventId} ${scanned}`;
      if ((best.get(key) ?? Infinity) <= rank) continue;
      best.set(key, rank);
      if (!out.has(row.eventId)) out.set(row.eventId, new Map());
      out.get(row.eventId)!.set(scanned, row);
    }
    return out;
  }

  /** Positions presented as on the list (as {@link one}), by id; one statement. Unknown ids are left out. */
  async many(list: ListScope, positionIds: readonly number[]): Promise<Map<number, CheckinPositionJson>> {
    if (positionIds.length === 0) return new Map();
    const rows = await this.queries.manyPositions(
      this.db,
      list.eventId,
      positionIds,
      this.presentation.listPositionRelated(list.id),
      toListPositionJson,
    );
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Which of `questionIds` the position has answered (check-in questions, compat §3.21); one statement. */
  async answeredQuestions(
    em: EntityManager,
    positionId: number,
    questionIds: readonly number[],
  ): Promise<Set<number>> {
    return new Set(await this.redeems.answeredQuestionIds(em, positionId, questionIds));
  }

  /**
   * Stores answers given at check-in on the position, replacing earlier answers to the same questions (compat
   * §3.21 `answers`); two or three statements, none without answers.
   */
  async saveAnswers(
    em: EntityManager,
    positionId: number,
    answers: readonly ValidatedAnswer[],
  ): Promise<void> {
    if (answers.length === 0) return;
    await this.redeems.deleteAnswers(
      em,
      positionId,
      answers.map((a) => a.questionId),
    );
    await this.answers.insert(
      em,
      answers.map((answer) => ({ orderPositionId: positionId, cartPositionId: null, answer })),
    );
  }

  /**
   * The secret and order code of each position, by position id (the live check-in stream); one statement.
   * Positions that are gone are absent.
   */
  async ticketRefs(
    em: EntityManager,
    positionIds: readonly number[],
  ): Promise<Map<number, { secret: string; order: string }>> {
    if (positionIds.length === 0) return new Map();
    const rows = await this.queries.ticketRefs(em, positionIds);
    return new Map(rows.map((r) => [r.id, { secret: r.secret, order: r.order }]));
  }

  /** Whether `positionId` is a position of the event (failed scans naming a position); one statement. */
  async inEvent(em: EntityManager, eventId: number, positionId: number): Promise<boolean> {
    return this.queries.inEvent(em, eventId, positionId);
  }

  /**
   * One position presented as on the list (whatever its status), for a redeem's answer; one statement.
   * @throws NotFound when the position is not of the list's event
   */
  async one(list: ListScope, positionId: number): Promise<CheckinPositionJson> {
    return this.queries.onePosition(
      this.db,
      list.eventId,
      positionId,
      this.presentation.listPositionRelated(list.id),
      toListPositionJson,
    );
  }

  /**
   * The positions a list admits with their last successful scan on it, in batches by position id (keyset, one
   * statement per batch) for the `checkinlist` export (spec "Scheduled export"); `paidOnly` leaves pending
   * orders out.
   */
  async *exportBatches(
    list: ListScope,
    paidOnly: boolean,
    batchSize = 2000,
  ): AsyncGenerator<CheckinExportRow[]> {
    let after = 0;
    for (;;) {
      const rows = await this.queries.exportBatch(this.db, list, paidOnly, after, batchSize);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1].position_id;
    }
  }
}

/**
 * The filters of a list's positions page as {@link CheckinSeamQueries.positionsPage} applies them, read in the
 * order they are applied (so the first malformed one is the one reported).
 * @throws ValidationFailed for a malformed filter value
 */
function parseWhere(filters: QueryFilters): CheckinPositionWhere {
  const search = filters.contains('search');
  const hasCheckin = filters.bool('has_checkin');
  const item = filters.int('item');
  const itemIn = filters.intList('item__in');
  const variation = filters.int('variation');
  const variationIn = filters.intList('variation__in');
  const order = filters.str('order');
  const secret = filters.str('secret');
  const attendeeName = filters.str('attendee_name');
  const orderStatus = filters.str('order__status')?.toLowerCase();
  const orderStatusIn = filters.str('order__status__in')?.toLowerCase().split(',');
  return {
    search,
    hasCheckin,
    item,
    itemIn,
    variation,
    variationIn,
    order,
    secret,
    attendeeName,
    orderStatus,
    orderStatusIn,
  };
}

/** A position on a list: attendee name falls back to the parent's; `require_attention` from the order. */
function toListPositionJson(p: OrderPosition, extras: ListPositionExtras): CheckinPositionJson {
  const json = toOrderPositionJson(p, extras);
  const attendee =
    json.attendee_name ?? (extras.parentNameParts ? nameFromParts(extras.parentNameParts) : null);
  return { ...json, attendee_name: attendee, require_attention: extras.orderAttention };
}
