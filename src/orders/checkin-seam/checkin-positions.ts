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
import { nameFromParts, OrderPositionJson, toOrderPositionJson } from '../presentation/order.presenter';
import {
  CheckinExportRow,
  CheckinPositionWhere,
  CheckinSeamQueries,
  ListCountsFragments,
  ListScope,
  ListStatusRow,
  RedeemPosition,
} from './checkin-seam.queries';

export type { CheckinExportRow, ListScope, ListStatusRow, RedeemPosition } from './checkin-seam.queries';

/**
 * SEAM between orders and check-in: which order positions a check-in list admits, their counts and their redeem
 * state, for the check-in context, which passes a list as {@link ListScope} and asks through
 * {@link CheckinPositions}; it never reads orders' tables. The SQL (which also names the check-in tables
 * `checkin_list_item` and `checkin`) is in {@link CheckinSeamQueries} (test/table-ownership.spec.ts lists it).
 */

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
  ): Promise<Paginated<CheckinPositionJson>> {
    const lists: readonly ListScope[] = 'id' in listOrLists ? [listOrLists] : listOrLists;
    if (lists.length === 0) return Paginated.of([], 0, page);
    const ignoreStatus = filters.bool('ignore_status') === true;
    const where = parseWhere(filters);
    const related = this.presentation.listPositionRelated(lists.map((l) => l.id));
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

  /**
   * One position of a list's positions page (pretix `GET …/checkinlists/{list}/positions/{id}/`): the position
   * `positionId` when the list, with the same filters as {@link page} (`ignore_status`, `search`, `has_checkin`,
   * …), shows it, in the same shape. One statement.
   * @throws NotFound when it does not
   * @throws ValidationFailed for a malformed filter value
   */
  async onList(list: ListScope, filters: QueryFilters, positionId: number): Promise<CheckinPositionJson> {
    const ignoreStatus = filters.bool('ignore_status') === true;
    const where = parseWhere(filters);
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
    return this.queries.forRedeem(em, eventId, identifier, id);
  }

  /** Which of `questionIds` the position has answered (check-in questions, compat §3.21); one statement. */
  async answeredQuestions(
    em: EntityManager,
    positionId: number,
    questionIds: readonly number[],
  ): Promise<Set<number>> {
    return new Set(await this.queries.answeredQuestionIds(em, positionId, questionIds));
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
    await this.queries.deleteAnswers(
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
