import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findOneInOne, paginateInOne } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import type { Event } from '../../organizers/event.entity';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import { OrderPositionJson, OrganizerOrderPositionJson, toOrderPositionJson } from './order.presenter';
import type { Principal } from '../../auth/principal';
import type { Organizer } from '../../organizers/organizer.entity';
import {
  CanceledFilter,
  OrderListQueries,
  POSITION_ID_FILTERS,
  POSITION_TEXT_FILTERS,
  PositionListWhere,
} from './order-list.queries';
import { PdfDataQueries } from './pdf-data.queries';
import { positionExactWhere } from './order-exact-filters';
import { pdfDataOf, printEventOf, PrintQuestion, wantsPdfData, withPdfData } from './pdf-data.rules';
import { NotFound } from '../../common/errors';
import { AnswerFile, AnswerFiles } from '../answers/answer-files.service';

/**
 * Order positions of an event, read-only (`E/orderpositions/`, compat §4.4 "Position fields"). Canceled
 * positions are hidden unless `include_canceled_positions=true` (or `canceled` is filtered on explicitly), as in
 * pretix. A page costs a fixed number of SQL statements: rows, count, order codes, answers, check-ins.
 * `pdf_data=true` adds each position's `pdf_data` (pretix `PdfDataSerializer`, see `pdf-data.rules.ts`) from
 * subqueries of the same statement.
 */
@Injectable()
export class OrderPositionsService {
  constructor(
    @InjectRepository(OrderPosition) private readonly positions: Repository<OrderPosition>,
    private readonly presentation: OrderPresentation,
    private readonly queries: OrderListQueries,
    private readonly answerFiles: AnswerFiles,
  ) {}

  /**
   * One page of positions. Filters: `order` (order code, case-insensitive), `order__status`, `item`,
   * `variation`, `addon_to`, `voucher` (integers), `attendee_email` (case-insensitive exact), `secret`,
   * `pseudonymization_id` (exact), `canceled` (boolean), `include_canceled_positions`; the exact filters of issue
   * 27 §6 (`order-exact-filters.ts`: `email`, `attendee_name`, `customer`, `item__in`, `order__status__in` /
   * `status__in`, `datetime_since`, `datetime_until`, each on an index). Ordering `id` (default), `positionid`.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async list(event: Event, filters: QueryFilters, page: PageRequest): Promise<Paginated<OrderPositionJson>> {
    const where = positionWhere(filters, event.organizerId);
    const qb = this.queries.positionsOfEvent(this.positions.manager, event.id, where);
    applyOrdering(qb, filters, ORDERING, ['id']);
    if (wantsPdfData(filters.raw('pdf_data'))) {
      const print = printEventOf(event);
      const now = new Date();
      return paginateInOne(qb, page, this.presentation.positionRelatedWithPrintFacts(event.id), (p, r) => {
        const json = toOrderPositionJson(p, r);
        return withPdfData(json, pdfDataOf(json, r.pdf, print, r.questions, now));
      });
    }
    return paginateInOne(qb, page, this.presentation.positionRelated(), toOrderPositionJson);
  }

  /**
   * `O/orderpositions/` (pretix 2026.01): positions of all events of the organizer on which the credential holds
   * `event.orders:read` (as `O/orders/`, docs/permissions.md), with the filters and ordering of {@link list} plus
   * `event` (slug); each carries its event's slug. No such event: an empty list. One statement per page.
   * @throws ValidationFailed (400) for a malformed filter value
   */
  async listForOrganizer(
    organizer: Organizer,
    principal: Principal,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<OrganizerOrderPositionJson>> {
    const where = { ...positionWhere(filters, organizer.id), eventSlug: filters.str('event') };
    const allowed = principal.eventsWithPermission(organizer.id, 'event.orders:read');
    const qb = this.queries.positionsOfOrganizer(this.positions.manager, organizer.id, allowed, where);
    applyOrdering(qb, filters, ORDERING, ['id']);
    return paginateInOne(qb, page, this.presentation.organizerPositionRelated(), (p, extras) => ({
      ...toOrderPositionJson(p, extras),
      event: extras.eventSlug,
    }));
  }

  /**
   * One position by id within the event.
   * @throws NotFound for an unknown id, one of another event, or a canceled one without `include_canceled_positions`
   */
  async get(event: Event, id: number, filters: QueryFilters): Promise<OrderPositionJson> {
    const qb = this.queries.positionById(this.positions.manager, event.id, id, canceledFilter(filters));
    if (wantsPdfData(filters.raw('pdf_data'))) {
      const print = printEventOf(event);
      const now = new Date();
      return findOneInOne(qb, this.presentation.positionRelatedWithPrintFacts(event.id), (p, r) => {
        const json = toOrderPositionJson(p, r);
        return withPdfData(json, pdfDataOf(json, r.pdf, print, r.questions, now));
      });
    }
    return findOneInOne(qb, this.presentation.positionRelated(), toOrderPositionJson);
  }

  /**
   * `GET E/orderpositions/{id}/pdf_image/{key}/` (pretix): the image a ticket layout's image variable `key` shows
   * for the position. The image variables are pretix's core ones, `question_<identifier>` of the event's file
   * questions: the position's file answer when it is an image (PNG, JPEG, GIF). Two to four statements.
   * @throws NotFound `Not found.` for an unknown position (canceled ones unless `include_canceled_positions=true`),
   *   `Unknown key` for a key that is no image variable, `No image available` for one without an image answer
   */
  async pdfImage(event: Event, id: number, key: string, filters: QueryFilters): Promise<AnswerFile> {
    const qb = this.queries.positionById(this.positions.manager, event.id, id, canceledFilter(filters));
    const questions = await findOneInOne(
      qb,
      { questions: { sql: PdfDataQueries.eventQuestions(event.id), read: (v) => v as PrintQuestion[] } },
      (_p, r) => r.questions,
    );
    const question = questions.find(
      ([, identifier, type]) => type === 'F' && `question_${identifier}` === key,
    );
    if (!question) throw new NotFound(UNKNOWN_IMAGE_KEY);
    const file = await this.answerFiles.get(event, id, question[0]).catch((e: unknown) => {
      if (e instanceof NotFound) return null;
      throw e;
    });
    if (!file || !IMAGE_TYPES.has(file.contentType)) throw new NotFound(NO_IMAGE);
    return file;
  }
}

/** Content types `pdf_image/` serves (the image types an upload may have). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

/** pretix's answers of `pdf_image/{key}/` for a key that is no image variable, and for one without an image. */
export const UNKNOWN_IMAGE_KEY = 'Unknown key';
export const NO_IMAGE = 'No image available';

/** Ordering fields of the position lists: wire name → SQL. */
const ORDERING = { id: 'p.id', positionid: 'p.positionid' };

/**
 * The position list filters, then the exact filters of issue 27 §6 (customers of `organizerId`), parsed in this
 * order (the first malformed one answers 400).
 */
function positionWhere(filters: QueryFilters, organizerId: number): PositionListWhere {
  const where: PositionListWhere = {
    canceled: canceledFilter(filters),
    order: filters.str('order'),
    orderStatus: filters.str('order__status')?.toLowerCase(),
  };
  for (const [param] of POSITION_ID_FILTERS) where[param] = filters.int(param);
  where.attendeeEmail = filters.str('attendee_email');
  for (const [param] of POSITION_TEXT_FILTERS) where[param] = filters.str(param);
  return { ...where, ...positionExactWhere(filters, organizerId) };
}

/** `canceled=<bool>` filters on it; otherwise canceled positions only with `include_canceled_positions=true`. */
function canceledFilter(filters: QueryFilters): CanceledFilter {
  const canceled = filters.bool('canceled');
  if (canceled !== undefined) return { canceled };
  return { include: filters.raw('include_canceled_positions') === 'true' };
}
