import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The orders' SQL for customers (references, granted memberships). Stateless; runs on the caller's `em`. */
@Injectable()
export class OrderCustomerQueries {
  /** Clears `customer` of the organizer's orders naming `identifier`; one statement. */
  async unlink(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    await em.query('UPDATE orders SET customer = NULL WHERE organizer_id = $1 AND customer = $2', [
      organizerId,
      identifier,
    ]);
  }

  /** The live (not canceled) positions of an order: id, item, date and attendee name parts; one statement. */
  livePositions(
    em: EntityManager,
    orderId: number,
  ): Promise<
    { id: number; itemId: number; subeventId: number | null; attendeeNameParts: Record<string, string> }[]
  > {
    return em.query(
      `SELECT id, item_id AS "itemId", subevent_id AS "subeventId", attendee_name_parts AS "attendeeNameParts"
         FROM order_position WHERE order_id = $1 AND NOT canceled ORDER BY positionid`,
      [orderId],
    );
  }
}
