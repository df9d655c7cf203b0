import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Order } from '../entities/order.entity';

/**
 * The SQL of the order status changes beyond the writer's (compat §4.4 "Actions"): the batch of expirable pending
 * orders and the regeneration of ticket secrets. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class OrderStatusQueries {
  /**
   * Up to `size` pending orders past `expires` that need no approval, oldest first, locked `FOR UPDATE SKIP
   * LOCKED` (one statement; rows locked by another expiry run are skipped).
   */
  expirable(em: EntityManager, now: Date, size: number): Promise<Order[]> {
    return em
      .createQueryBuilder(Order, 'o')
      .where("o.status = 'n'")
      .andWhere('o.expires < :now', { now })
      .andWhere('NOT o.requireApproval')
      .orderBy('o.expires', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .limit(size)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
  }

  /**
   * Keeps the current ticket secrets of the order's positions (or of its position `positionId` only) as revoked
   * (`revoked_secret`); the ids of those positions (one statement).
   */
  revokeSecrets(em: EntityManager, orderId: number, positionId?: number): Promise<{ id: number }[]> {
    return em.query(
      `INSERT INTO revoked_secret (event_id, position_id, secret)
         SELECT event_id, id, secret FROM order_position WHERE order_id = $1 AND ($2::int IS NULL OR id = $2)
       RETURNING position_id AS id`,
      [orderId, positionId ?? null],
    );
  }

  /** Sets the secrets of positions (`ids[i]` gets `secrets[i]`; one statement). */
  async setSecrets(em: EntityManager, ids: number[], secrets: string[]): Promise<void> {
    await em.query(
      `UPDATE order_position p SET secret = v.secret
           FROM unnest($1::int[], $2::text[]) AS v(id, secret) WHERE p.id = v.id`,
      [ids, secrets],
    );
  }
}
