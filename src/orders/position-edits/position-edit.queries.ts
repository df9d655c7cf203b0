import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderPosition } from '../entities/order-position.entity';

/** The order of a locked position, as an edit needs it. */
export interface EditTarget {
  orderId: number;
  orderCode: string;
}

/**
 * The SQL of position edits (`PATCH E/orderpositions/{id}/`, `POST …/regenerate_secrets/`). Stateless; every
 * method runs on the caller's `em`.
 */
@Injectable()
export class PositionEditQueries {
  /**
   * Locks the order of the event's not-canceled position `id`, then the position (`FOR UPDATE`, order first as
   * every order change does), and reads the position; null when there is no such position (two statements).
   */
  async lockPosition(
    em: EntityManager,
    eventId: number,
    id: number,
  ): Promise<{ target: EditTarget; position: OrderPosition } | null> {
    const rows: EditTarget[] = await em.query(
      `SELECT p.order_id AS "orderId", o.code AS "orderCode"
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.event_id = $1 AND p.id = $2 AND NOT p.canceled
          FOR UPDATE OF o, p`,
      [eventId, id],
    );
    if (rows.length === 0) return null;
    const position = await em.findOneByOrFail(OrderPosition, { id });
    return { target: rows[0], position };
  }

  /** Sets a position's ticket secret and moves its order's `last_modified` (one statement). */
  async setSecret(em: EntityManager, target: EditTarget, positionId: number, secret: string, at: Date) {
    await em.query(
      `WITH ord AS (UPDATE orders SET last_modified = $4 WHERE id = $3)
       UPDATE order_position SET secret = $2 WHERE id = $1`,
      [positionId, secret, target.orderId, at],
    );
  }

  /** Moves the order's `last_modified` (one statement). */
  async touchOrder(em: EntityManager, orderId: number, at: Date): Promise<void> {
    await em.query('UPDATE orders SET last_modified = $2 WHERE id = $1', [orderId, at]);
  }
}
