import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { TenancyQueries } from '../../organizers/tenancy.queries';
import { OrderPosition } from '../entities/order-position.entity';
import { OrderPresentation } from './order-presentation.service';
import { NestedOrderPositionJson } from './nested-order-position.presenter';
import { OrderListQueries } from './order-list.queries';

/**
 * Reads of order positions for the contexts above orders that reference them by id (gift cards' owner tickets,
 * reusable media's linked positions): which ids belong to an organizer, a position by its secret, and positions
 * presented for nesting. The `order_position` and `orders` tables stay with this context. Every method runs a
 * fixed number of statements for any number of ids, none for an empty list.
 */
@Injectable()
export class OrderPositionReads {
  constructor(
    private readonly presentation: OrderPresentation,
    private readonly queries: OrderListQueries,
  ) {}

  /** The ids among `ids` that are positions of orders of the organizer, canceled ones included (one statement). */
  async inOrganizer(em: EntityManager, organizerId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.queries.positionsInOrganizer(em, organizerId, [...new Set(ids)]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The id of the organizer's position with this ticket secret, or null when none or (secrets are unique per
   * event only) several events of the organizer have one (one statement).
   */
  async idBySecret(em: EntityManager, organizerId: number, secret: string): Promise<number | null> {
    const rows = await this.queries.positionIdsBySecret(em, organizerId, secret);
    return rows.length === 1 ? rows[0].id : null;
  }

  /**
   * Positions by id presented for nesting, whatever their organizer (callers pass ids they hold a reference to):
   * the positions, their orders, answers (two statements), check-ins and event slugs, six statements in all.
   */
  async nested(em: EntityManager, ids: readonly number[]): Promise<Map<number, NestedOrderPositionJson>> {
    if (ids.length === 0) return new Map();
    const positions = await em.find(OrderPosition, { where: { id: In([...new Set(ids)]) } });
    if (positions.length === 0) return new Map();
    const orders = await this.queries.ordersByIds(em, [...new Set(positions.map((p) => p.orderId))]);
    const orderById = new Map(orders.map((o) => [o.id, o]));
    const codes = new Map(orders.map((o) => [o.id, o.code]));
    const presented = await this.presentation.positions(em, positions, codes);
    const slugs = await new TenancyQueries().eventSlugs(
      em,
      orders.map((o) => o.event_id),
    );
    const out = new Map<number, NestedOrderPositionJson>();
    positions.forEach((p, i) => {
      const order = orderById.get(p.orderId);
      const { order: code, ...rest } = presented[i];
      out.set(p.id, { ...rest, order: { code, event: order ? (slugs.get(order.event_id) ?? '') : '' } });
    });
    return out;
  }
}
