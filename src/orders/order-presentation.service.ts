import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { SalesCatalogue } from '../catalogue/sales/sales-catalogue.service';
import { groupBy } from '../common/values/collections';
import { isoUtc } from '../common/values/datetime';
import type { CartPosition } from './cart-position.entity';
import { successfulCheckins } from './checkin-seam';
import { InvoiceAddress } from './invoice-address.entity';
import { OrderFee } from './order-fee.entity';
import { OrderPayment } from './order-payment.entity';
import { OrderPosition } from './order-position.entity';
import type { Order } from './order.entity';
import {
  AnswerJson,
  CartPositionJson,
  CheckinJson,
  OrderJson,
  OrderPositionJson,
  toCartPositionJson,
  toOrderJson,
  toOrderPositionJson,
} from './order.presenter';

interface AnswerRow {
  position_id: number;
  question_id: number;
  answer: string;
  option_ids: number[];
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
  constructor(private readonly catalogue: SalesCatalogue) {}

  /** Orders with positions, fees, payments and invoice address (seven statements for any number of orders). */
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
    const addresses = await em.find(InvoiceAddress, { where: { orderId: In(ids) } });
    const codes = new Map(orders.map((o) => [o.id, o.code]));
    const presented = await this.positions(em, positions, codes);
    const orderOf = new Map(positions.map((p) => [p.id, p.orderId]));
    const positionsByOrder = groupBy(presented, (p) => orderOf.get(p.id)!);
    const feesByOrder = groupBy(fees, (f) => f.orderId);
    const paymentsByOrder = groupBy(payments, (p) => p.orderId);
    const addressByOrder = new Map(addresses.map((a) => [a.orderId, a]));
    return orders.map((o) =>
      toOrderJson(o, {
        eventSlug: eventSlugs.get(o.eventId) ?? '',
        positions: positionsByOrder.get(o.id) ?? [],
        fees: feesByOrder.get(o.id) ?? [],
        payments: paymentsByOrder.get(o.id) ?? [],
        invoiceAddress: addressByOrder.get(o.id) ?? null,
      }),
    );
  }

  /** Order positions with answers and check-ins (three statements), given the codes of their orders. */
  async positions(
    em: EntityManager,
    positions: OrderPosition[],
    orderCodes: ReadonlyMap<number, string>,
  ): Promise<OrderPositionJson[]> {
    if (positions.length === 0) return [];
    const ids = positions.map((p) => p.id);
    const answers = await this.answers(em, 'order', ids);
    const checkins = await this.checkins(em, ids);
    return positions.map((p) =>
      toOrderPositionJson(p, {
        orderCode: orderCodes.get(p.orderId) ?? '',
        answers: answers.get(p.id) ?? [],
        checkins: checkins.get(p.id) ?? [],
      }),
    );
  }

  /** Cart positions with answers (two statements). */
  async carts(em: EntityManager, carts: CartPosition[]): Promise<CartPositionJson[]> {
    if (carts.length === 0) return [];
    const answers = await this.answers(
      em,
      'cart',
      carts.map((c) => c.id),
    );
    return carts.map((c) => toCartPositionJson(c, answers.get(c.id) ?? []));
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
    const rows: AnswerRow[] = await em.query(
      `SELECT a.${column} AS position_id, a.question_id, a.answer,
              COALESCE(array_agg(ao.option_id) FILTER (WHERE ao.option_id IS NOT NULL), '{}') AS option_ids
         FROM question_answer a
         LEFT JOIN question_answer_option ao ON ao.answer_id = a.id
        WHERE a.${column} = ANY($1)
        GROUP BY a.id
        ORDER BY a.id`,
      [ids],
    );
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
    const rows = await successfulCheckins(em, positionIds);
    return groupBy(
      rows,
      (r) => r.position_id,
      (r): CheckinJson => ({
        id: r.id,
        list: r.list_id,
        type: r.type,
        datetime: isoUtc(r.datetime),
        gate: null,
        device: null,
        auto_checked_in: false,
      }),
    );
  }
}
