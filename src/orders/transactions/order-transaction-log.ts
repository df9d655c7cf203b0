import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderTransactionQueries } from './order-transaction.queries';

/**
 * The order transaction log (pretix 2025.7 "Transactions"): what an order sells, as rows of ±count per position
 * and fee with price, tax rate and tax value. {@link sync} compares the order's current positions and fees with
 * the sum of its rows and writes the difference, so every writer calls it at the end of its database transaction
 * and the log always sums to the order's total while the order counts (pending or paid, not awaiting approval;
 * 0 otherwise). Idempotent: a second call with nothing changed writes nothing.
 */
@Injectable()
export class OrderTransactionLog {
  constructor(private readonly queries: OrderTransactionQueries) {}

  /**
   * Writes the rows that bring the log of order `orderId` in line with its positions and fees, with `datetime`
   * `at` (UTC), on the caller's transaction (`em`); one statement whatever the order's size. The caller holds the
   * order row lock (or has just inserted the order), so two syncs of one order never interleave.
   */
  async sync(em: EntityManager, orderId: number, at: Date): Promise<void> {
    await this.queries.sync(em, orderId, at);
  }
}
