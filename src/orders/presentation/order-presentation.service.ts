import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import { byOptionPosition, OptionTriple } from '../../catalogue/questions/question.queries';
import { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import { Related, relatedRow, relatedRows, RelatedSpec } from '../../common/listing/page-query';
import { RowMapper } from '../../common/persistence/row-mapper';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { SeatSales } from '../../seating/seat-sales.service';
import type { PositionSeatJson } from './order-parts.presenter';
import { groupBy } from '../../common/values/collections';
import { isoUtc } from '../../common/values/datetime';
import type { CartPosition } from '../carts/cart-position.entity';
import { CheckinSeamQueries } from '../checkin-seam/checkin-seam.queries';
import { InvoiceAddress } from '../entities/invoice-address.entity';
import { OrderFee } from '../entities/order-fee.entity';
import { OrderPayment } from '../entities/order-payment.entity';
import { OrderRefund } from '../entities/order-refund.entity';
import { OrderPosition } from '../entities/order-position.entity';
import type { Order } from '../entities/order.entity';
import {
  AnswerJson,
  CheckinJson,
  OrderExtras,
  OrderJson,
  OrderPositionJson,
  PositionExtras,
  PositionTicketFacts,
  readTicketFacts,
  toOrderJson,
  toOrderPositionJson,
} from './order.presenter';
import { OrderListQueries } from './order-list.queries';
import { CartPositionJson, toCartPositionJson } from './cart-position.presenter';
import { PrintLogQueries } from './print-log.queries';
import { PdfDataQueries } from './pdf-data.queries';
import type { PositionPrintFacts, PrintQuestion } from './pdf-data.rules';
import { orderDownloadRefusal } from './ticket-download.rules';

/** Extras of a position on a check-in list ({@link OrderPresentation.listPositionRelated}). */
export interface ListPositionExtras extends PositionExtras {
  orderAttention: boolean;
  parentNameParts: Record<string, string> | null;
}

/**
 * Turns orders, order positions and cart positions into their wire form, loading everything they show for the
 * whole batch at once: presenting 1 or 50 orders costs the same fixed number of SQL statements (style.md "Data
 * access"). Positions are ordered by `positionid`, answers by id, their options by the options' position,
 * check-ins by time. Question and option identifiers come from the catalogue ({@link SalesCatalogue}), check-ins
 * through the check-in seam.
 */
@Injectable()
export class OrderPresentation {
  private readonly positionRows: RowMapper<OrderPosition>;
  private orderSpec?: RelatedSpec<OrderExtras>;
  private positionSpec?: RelatedSpec<PositionExtras>;
  private organizerPositionSpec?: RelatedSpec<PositionExtras & { eventSlug: string }>;
  private cartSpec?: RelatedSpec<{ answers: AnswerJson[]; seat: PositionSeatJson | null }>;

  constructor(
    private readonly catalogue: SalesCatalogue,
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly tenancy: TenancyQueries,
    private readonly seatSales: SeatSales,
    private readonly queries: OrderListQueries,
    private readonly checkinSeam: CheckinSeamQueries,
    private readonly printLogs: PrintLogQueries,
  ) {
    this.positionRows = RowMapper.of(em.connection.getMetadata(OrderPosition));
  }

  /**
   * Completes the `seat` objects of presented positions (name and guid from the seating context, compat §3.2), in
   * place: one statement for the whole batch, none when no position has a seat. Every presentation of order or
   * cart positions ends with it.
   * @returns `items`, for chaining
   */
  async fillSeats<T extends { seat: PositionSeatJson | null }>(em: EntityManager, items: T[]): Promise<T[]> {
    const seated = items.filter((i) => i.seat !== null);
    if (seated.length === 0) return items;
    const seats = await this.seatSales.describe(
      em,
      seated.map((i) => i.seat!.id),
    );
    for (const item of seated) item.seat = seats.get(item.seat!.id) ?? null;
    return items;
  }

  /**
   * Everything an order's wire form shows besides its row (alias `o`), as subqueries of the order's own
   * statement: a page of orders, its count and all their positions, answers, check-ins, fees, payments and
   * invoice addresses (and refunds) in ONE statement (style.md "Data access").
   */
  orderRelated(): RelatedSpec<OrderExtras> {
    return (this.orderSpec ??= {
      eventSlug: { sql: this.tenancy.eventSlugOf('o.event_id'), read: (v) => (v as string | null) ?? '' },
      organizerSlug: {
        sql: this.tenancy.organizerSlugOf('o.organizer_id'),
        read: (v) => (v as string | null) ?? null,
      },
      positions: this.positionsOfOrder(),
      fees: relatedRows<OrderFee>(
        this.em.connection.getMetadata(OrderFee),
        'f',
        this.queries.orderParts().fees,
        'f.id',
      ),
      payments: relatedRows<OrderPayment>(
        this.em.connection.getMetadata(OrderPayment),
        'pay',
        this.queries.orderParts().payments,
        'pay.local_id',
      ),
      refunds: relatedRows<OrderRefund>(
        this.em.connection.getMetadata(OrderRefund),
        'rf',
        this.queries.orderParts().refunds,
        'rf.local_id',
      ),
      invoiceAddress: relatedRow<InvoiceAddress>(
        this.em.connection.getMetadata(InvoiceAddress),
        'ia',
        this.queries.orderParts().invoiceAddress,
      ),
    });
  }

  /** What a cart position's wire form shows besides its row (alias `c`): its answers and seat (style.md "Data access"). */
  cartRelated(): RelatedSpec<{ answers: AnswerJson[]; seat: PositionSeatJson | null }> {
    return (this.cartSpec ??= {
      answers: { sql: this.queries.answersOf('c.id', 'cart_position_id'), read: readAnswers },
      seat: { sql: this.queries.positionSeat('c.seat_id'), read: readSeat },
    });
  }

  /** What a position's wire form shows besides its row (alias `p`), as subqueries of its own statement. */
  positionRelated(): RelatedSpec<PositionExtras> {
    return (this.positionSpec ??= {
      orderCode: {
        sql: this.queries.positionParts().orderCode,
        read: (v) => v as string,
      },
      answers: { sql: this.queries.answersOf('p.id'), read: readAnswers },
      checkins: { sql: this.checkinSeam.checkins('p.id'), read: readCheckins },
      printLogs: { sql: PrintLogQueries.printLogsSql('p.id'), read: PrintLogQueries.read },
      seat: { sql: this.queries.positionSeat('p.seat_id'), read: readSeat },
      ticket: { sql: this.queries.ticketFacts('p'), read: readTicketFacts },
    });
  }

  /** {@link positionRelated} plus the slug of the position's event (`O/orderpositions/`). */
  organizerPositionRelated(): RelatedSpec<PositionExtras & { eventSlug: string }> {
    return (this.organizerPositionSpec ??= {
      ...this.positionRelated(),
      eventSlug: { sql: this.tenancy.eventSlugOf('p.event_id'), read: (v) => (v as string | null) ?? '' },
    });
  }

  /**
   * What a position shown on a check-in list needs besides its row (alias `p`, compat §3.21): the order's code,
   * status and attention flag, answers, the check-ins of that list only, and the parent position's attendee name
   * (the fallback of an add-on without one).
   */
  listPositionRelated(listIds: number | readonly number[]): RelatedSpec<ListPositionExtras> {
    return {
      ...this.positionRelated(),
      checkins: { sql: this.checkinSeam.checkins('p.id', listIds), read: readCheckins },
      orderAttention: {
        sql: this.queries.positionParts().orderAttention,
        read: (v) => v === true,
      },
      parentNameParts: {
        sql: this.queries.positionParts().parentNameParts,
        read: (v) => (v as Record<string, string> | null) ?? null,
      },
    };
  }

  /**
   * {@link orderRelated} for `pdf_data=true` (compat §4.4): each position's print facts
   * ({@link PdfDataQueries.positionFacts}) go into `facts` by position id while the page is read, and the event's
   * questions come as `questions`; still one statement.
   */
  orderRelatedWithPrintFacts(
    eventId: number,
    facts: Map<number, PositionPrintFacts>,
  ): RelatedSpec<OrderExtras & { questions: PrintQuestion[] }> {
    return {
      ...this.orderRelated(),
      positions: this.positionsOfOrder(facts),
      questions: { sql: PdfDataQueries.eventQuestions(eventId), read: (v) => (v as PrintQuestion[]) ?? [] },
    };
  }

  /** {@link positionRelated} with the print facts of each position and the event's questions (pdf_data). */
  positionRelatedWithPrintFacts(
    eventId: number,
  ): RelatedSpec<PositionExtras & { pdf: PositionPrintFacts; questions: PrintQuestion[] }> {
    return {
      ...this.positionRelated(),
      pdf: { sql: PdfDataQueries.positionFacts('p'), read: (v) => v as PositionPrintFacts },
      questions: { sql: PdfDataQueries.eventQuestions(eventId), read: (v) => (v as PrintQuestion[]) ?? [] },
    };
  }

  /** The positions of order `o` with answers and check-ins, by `positionid`, presented. */
  private positionsOfOrder(printFacts?: Map<number, PositionPrintFacts>): Related<OrderPositionJson[]> {
    const sql = this.queries.positionsOfOrder(
      this.positionRows,
      printFacts ? (alias) => PdfDataQueries.positionFacts(alias) : undefined,
    );
    return {
      sql,
      read: (value) =>
        (
          value as {
            row: Record<string, unknown>;
            code: string;
            answers: unknown;
            checkins: unknown;
            print_logs: unknown;
            seat: unknown;
            ticket: unknown;
            pdf?: PositionPrintFacts;
          }[]
        ).map((j) => {
          const json = toOrderPositionJson(this.positionRows.fromJson(j.row), {
            orderCode: j.code,
            answers: readAnswers(j.answers),
            checkins: readCheckins(j.checkins),
            printLogs: PrintLogQueries.read(j.print_logs),
            seat: readSeat(j.seat),
            ticket: readTicketFacts(j.ticket),
          });
          if (printFacts && j.pdf) printFacts.set(json.id, j.pdf);
          return json;
        }),
    };
  }

  /**
   * Orders with positions, fees, payments, refunds, invoice address and seats (nine statements for any number of orders,
   * one more for the `downloads` when one of the orders may download tickets).
   */
  async orders(
    em: EntityManager,
    orders: Order[],
    eventSlugs: ReadonlyMap<number, string>,
  ): Promise<OrderJson[]> {
    if (orders.length === 0) return [];
    const ids = orders.map((o) => o.id);
    // Sequential on purpose: inside a transaction all statements share one connection.
    const positions = await em.find(OrderPosition, {
      where: { orderId: In(ids) },
      order: { positionid: 'ASC', id: 'ASC' },
    });
    const fees = await em.find(OrderFee, { where: { orderId: In(ids) }, order: { id: 'ASC' } });
    const payments = await em.find(OrderPayment, { where: { orderId: In(ids) }, order: { localId: 'ASC' } });
    const refunds = await em.find(OrderRefund, { where: { orderId: In(ids) }, order: { localId: 'ASC' } });
    const addresses = await em.find(InvoiceAddress, { where: { orderId: In(ids) } });
    const codes = new Map(orders.map((o) => [o.id, o.code]));
    const downloadable = orders.some((o) => orderDownloadRefusal(o) === null);
    const tickets = downloadable
      ? await this.ticketFacts(
          em,
          positions.map((p) => p.id),
        )
      : new Map<number, PositionTicketFacts>();
    const organizerOf = new Map(
      positions.flatMap((p) => {
        const t = tickets.get(p.id);
        return t ? [[p.orderId, t.organizer] as const] : [];
      }),
    );
    const presented = await this.positions(em, positions, codes, tickets);
    const orderOf = new Map(positions.map((p) => [p.id, p.orderId]));
    const positionsByOrder = groupBy(presented, (p) => orderOf.get(p.id)!);
    const feesByOrder = groupBy(fees, (f) => f.orderId);
    const paymentsByOrder = groupBy(payments, (p) => p.orderId);
    const refundsByOrder = groupBy(refunds, (r) => r.orderId);
    const addressByOrder = new Map(addresses.map((a) => [a.orderId, a]));
    const json = orders.map((o) =>
      toOrderJson(o, {
        eventSlug: eventSlugs.get(o.eventId) ?? '',
        positions: positionsByOrder.get(o.id) ?? [],
        fees: feesByOrder.get(o.id) ?? [],
        payments: paymentsByOrder.get(o.id) ?? [],
        refunds: refundsByOrder.get(o.id) ?? [],
        invoiceAddress: addressByOrder.get(o.id) ?? null,
        organizerSlug: organizerOf.get(o.id) ?? null,
      }),
    );
    return json;
  }

  /**
   * Order positions with answers, check-ins, print logs and seats (five statements at most; one more for the slugs
   * of file answers' URLs when `tickets` lacks a position with one), given the codes of their orders; `tickets` (by
   * position id, see {@link ticketFacts}) fills their `downloads`.
   */
  async positions(
    em: EntityManager,
    positions: OrderPosition[],
    orderCodes: ReadonlyMap<number, string>,
    tickets: ReadonlyMap<number, PositionTicketFacts> = new Map(),
  ): Promise<OrderPositionJson[]> {
    if (positions.length === 0) return [];
    const ids = positions.map((p) => p.id);
    const answers = await this.answers(em, 'order', ids);
    const lacking = ids.filter(
      (id) => !tickets.has(id) && (answers.get(id) ?? []).some((a) => a.answer.startsWith('file://')),
    );
    if (lacking.length > 0) tickets = new Map([...tickets, ...(await this.ticketFacts(em, lacking))]);
    const checkins = await this.checkins(em, ids);
    const printLogs = await this.printLogs.byPositions(em, ids);
    return this.fillSeats(
      em,
      positions.map((p) =>
        toOrderPositionJson(p, {
          orderCode: orderCodes.get(p.orderId) ?? '',
          answers: answers.get(p.id) ?? [],
          checkins: checkins.get(p.id) ?? [],
          printLogs: printLogs.get(p.id) ?? [],
          ticket: tickets.get(p.id) ?? null,
        }),
      ),
    );
  }

  /** What the `downloads` of these positions are decided from, by position id (one statement, none for none). */
  async ticketFacts(
    em: EntityManager,
    positionIds: readonly number[],
  ): Promise<Map<number, PositionTicketFacts>> {
    const rows = await this.queries.ticketFactsOf(em, positionIds);
    const out = new Map<number, PositionTicketFacts>();
    for (const r of rows) {
      const facts = readTicketFacts(r.facts);
      if (facts) out.set(r.id, facts);
    }
    return out;
  }

  /**
   * Cart positions with answers and seats (three statements at most).
   * @param answered when given, the ids of the positions that may have answers: the others are known to have
   *   none (the caller has just written them), and without any the answers are not read at all
   */
  async carts(
    em: EntityManager,
    carts: CartPosition[],
    answered?: readonly number[],
  ): Promise<CartPositionJson[]> {
    if (carts.length === 0) return [];
    const ids = answered ?? carts.map((c) => c.id);
    const answers =
      ids.length > 0 ? await this.answers(em, 'cart', [...ids]) : new Map<number, AnswerJson[]>();
    return this.fillSeats(
      em,
      carts.map((c) => toCartPositionJson(c, answers.get(c.id) ?? [])),
    );
  }

  /**
   * Answers of order or cart positions, with question and option identifiers, per position id: the answers and
   * their options (one statement), then the identifiers and option positions from the catalogue (one more).
   */
  private async answers(
    em: EntityManager,
    kind: 'order' | 'cart',
    ids: number[],
  ): Promise<Map<number, AnswerJson[]>> {
    const column = kind === 'order' ? 'order_position_id' : 'cart_position_id';
    const rows = await this.queries.answers(em, column, ids);
    const { questions, options } = await this.catalogue.questions(
      em,
      rows.map((r) => r.question_id),
      rows.flatMap((r) => r.option_ids),
      true,
    );
    const sorted = (optionIds: number[]) =>
      optionIds
        .filter((id) => options.has(id))
        .map((id) => options.get(id)!)
        .sort((a, b) => a.position - b.position || a.id - b.id);
    return groupBy(
      rows.filter((r) => questions.has(r.question_id)),
      (r) => r.position_id,
      (r): AnswerJson => ({
        question: r.question_id,
        answer: r.answer,
        question_identifier: questions.get(r.question_id)!.identifier,
        options: sorted(r.option_ids).map((o) => o.id),
        option_identifiers: sorted(r.option_ids).map((o) => o.identifier),
      }),
    );
  }

  private async checkins(em: EntityManager, positionIds: number[]): Promise<Map<number, CheckinJson[]>> {
    const rows = await this.checkinSeam.successfulCheckins(em, positionIds);
    return groupBy(
      rows,
      (r) => r.position_id,
      (r): CheckinJson => ({
        id: r.id,
        list: r.list_id,
        type: r.type,
        datetime: isoUtc(r.datetime),
        gate: r.gate_id,
        device: null,
        device_id: r.device_id,
        auto_checked_in: r.auto_checked_in,
      }),
    );
  }
}

function toAnswerJson(
  question: number,
  answer: string,
  identifier: string,
  options: OptionTriple[],
): AnswerJson {
  const sorted = [...options].sort(byOptionPosition);
  return {
    question,
    answer,
    question_identifier: identifier,
    options: sorted.map((o) => o[0]),
    option_identifiers: sorted.map((o) => o[1]),
  };
}

/** Reads the answers array of a position's subquery. */
export function readAnswers(value: unknown): AnswerJson[] {
  return (value as { q: number; a: string; i: string; o: OptionTriple[] }[]).map((r) =>
    toAnswerJson(r.q, r.a, r.i, r.o),
  );
}

/**
 * Reads {@link CheckinSeamQueries.checkins}'s array (rows of older statements may lack `auto_checked_in`, the
 * device number and the gate).
 */
export function readCheckins(value: unknown): CheckinJson[] {
  return (
    value as [number, number | null, string, string, boolean?, (number | null)?, (number | null)?][]
  ).map(([id, list, type, datetime, auto, deviceId, gateId]) => ({
    id,
    list,
    type,
    datetime: isoUtc(new Date(datetime)),
    gate: gateId ?? null,
    device: null,
    device_id: deviceId ?? null,
    auto_checked_in: auto ?? false,
  }));
}

/** The seat object of a position as {@link OrderListQueries.positionSeat} gives it (jsonb or NULL). */
function readSeat(value: unknown): PositionSeatJson | null {
  return (value as PositionSeatJson | null) ?? null;
}
