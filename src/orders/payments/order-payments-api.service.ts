import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager } from 'typeorm';
import { NotFound } from '../../common/errors';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import type { Event } from '../../organizers/event.entity';
import { OrderPaymentJson, toOrderPaymentJson } from '../presentation/order.presenter';
import { OrderPaymentQueries } from './order-payment.queries';

/**
 * The order payment endpoints `E/orders/{code}/payments/` (pretix doc "Order payment endpoints"): list and detail
 * of an order's payments in {@link OrderPaymentJson} form (money strings, UTC datetimes).
 */
@Injectable()
export class OrderPaymentsApi {
  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly queries: OrderPaymentQueries,
  ) {}

  /**
   * One page of the order's payments, by `local_id`.
   * @throws NotFound for a code that is not an order of the event
   */
  async list(event: Event, code: string, page: PageRequest): Promise<Paginated<OrderPaymentJson>> {
    const order = await this.queries.order(this.em, event.id, code);
    if (!order) throw new NotFound();
    return this.queries.page(this.em, order.id, page, (rows) => rows.map(toOrderPaymentJson));
  }

  /**
   * One payment of the order.
   * @throws NotFound for an unknown order or `local_id`
   */
  async get(event: Event, code: string, localId: number): Promise<OrderPaymentJson> {
    const order = await this.queries.order(this.em, event.id, code);
    if (!order) throw new NotFound();
    const payment = await this.queries.one(this.em, order.id, localId);
    if (!payment) throw new NotFound();
    return toOrderPaymentJson(payment);
  }
}
