import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderPosition } from '../entities/order-position.entity';
import { Order } from '../entities/order.entity';
import { OrderPresentation } from './order-presentation.service';
import type { OrderJson } from './order.presenter';

/** An order as contexts above orders read it: its id and status, and the full wire object. */
export interface OrderSnapshot {
  id: number;
  eventId: number;
  code: string;
  status: string;
  json: OrderJson;
}

/**
 * Reads of whole orders for the contexts above orders (invoices), on the caller's manager so they can run inside
 * its transaction.
 */
@Injectable()
export class OrderReads {
  constructor(private readonly presentation: OrderPresentation) {}

  /**
   * The order of the event with this code, locked (`FOR UPDATE`) when `lock`; null when there is none.
   */
  async byCode(em: EntityManager, eventId: number, code: string, lock: boolean): Promise<Order | null> {
    if (code.length > 16) return null;
    return em.findOne(Order, {
      where: { eventId, code },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * The order of the event that a ticket download addresses: by code (exact), or the order of the position with
   * this id (canceled positions too; the caller decides). Null when the event has none.
   */
  async ticketOrder(
    em: EntityManager,
    eventId: number,
    ref: { code: string } | { positionId: number },
  ): Promise<Order | null> {
    if ('code' in ref) return this.byCode(em, eventId, ref.code, false);
    const position = await em.findOne(OrderPosition, {
      where: { id: ref.positionId },
      select: { orderId: true },
    });
    if (!position) return null;
    return em.findOne(Order, { where: { id: position.orderId, eventId } });
  }

  /** The order with this id, or null. */
  byId(em: EntityManager, id: number): Promise<Order | null> {
    return em.findOne(Order, { where: { id } });
  }

  /** The order with positions, fees, payments and invoice address (seven statements). */
  async snapshot(em: EntityManager, order: Order, eventSlug: string): Promise<OrderSnapshot> {
    const [json] = await this.presentation.orders(em, [order], new Map([[order.eventId, eventSlug]]));
    return { id: order.id, eventId: order.eventId, code: order.code, status: order.status, json };
  }
}
