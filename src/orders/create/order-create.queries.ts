import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The SQL of order creation beyond the writer's (compat §4.4 "Creating orders"): which sent ticket secrets the
 * event already has, and whether an order code is taken. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class OrderCreateQueries {
  /** The secrets among `secrets` that positions of the event already have (one statement). */
  takenSecrets(em: EntityManager, eventId: number, secrets: string[]): Promise<{ secret: string }[]> {
    return em.query('SELECT secret FROM order_position WHERE event_id = $1 AND secret = ANY($2)', [
      eventId,
      secrets,
    ]);
  }

  /** Whether an order of the organizer has this code (one statement). */
  async codeTaken(em: EntityManager, organizerId: number, code: string): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM orders WHERE organizer_id = $1 AND code = $2', [
      organizerId,
      code,
    ]);
    return rows.length > 0;
  }
}
