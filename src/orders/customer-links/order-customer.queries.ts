import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The orders' SQL for customer references. Stateless; runs on the caller's `em`. */
@Injectable()
export class OrderCustomerQueries {
  /** Clears `customer` of the organizer's orders naming `identifier`; one statement. */
  async unlink(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    await em.query('UPDATE orders SET customer = NULL WHERE organizer_id = $1 AND customer = $2', [
      organizerId,
      identifier,
    ]);
  }
}
