import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogService } from '../../audit/audit-log.service';
import type { Principal } from '../../auth/principal';
import { setLockTimeout } from '../../common/persistence/lock-timeout';
import { AppConfig } from '../../config/app-config';
import { OrderChange, OrderWriter } from '../writing/order-writer';
import { Order } from '../entities/order.entity';
import { OrderStatusQueries } from './order-status.queries';
import { Periodic } from '../../common/contributions';
import { OrderTransactionLog } from '../transactions/order-transaction-log';

/** pretix's log action of an order that expired, by hand or by the scheduler (compat §5). */
export const ORDER_EXPIRED = 'pretix.event.order.expired';

/**
 * Whether a locked order is due to expire at `now` (pretix's periodic `expire_orders`): pending, its payment
 * deadline `expires` passed, and not waiting for approval (an order pending approval has no payment to wait for,
 * pretix leaves it alone). Checked again after the row lock is taken, so an order paid or extended in the same
 * moment is never expired.
 */
export function isDue(order: Pick<Order, 'status' | 'expires' | 'requireApproval'>, now: Date): boolean {
  return order.status === 'n' && !order.requireApproval && order.expires.getTime() < now.getTime();
}

/**
 * Expiry of pending orders (compat §4.4 `mark_expired`; pretix's automatic expiry of unpaid orders): the one
 * path through which an order becomes `e`, used by the `mark_expired` action and by the worker's scheduler. It
 * logs `pretix.event.order.expired` and applies `{status: 'e'}` through {@link OrderWriter.change}, where
 * whatever follows the order states (quota counts) is kept. An expired order no longer counts on its quotas
 * (the quota engine counts paid and pending orders only), so the places are free again at the commit; its
 * vouchers stay redeemed (it may be revived by `mark_paid` or `extend`).
 *
 * This API has no event setting to turn automatic expiry off (pretix's `payment_term_expire_automatically`
 * defaults to true, which is what every event here does).
 */
@Injectable()
export class OrderExpiry {
  private readonly logger = new Logger('OrderExpiry');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly audit: AuditLogService,
    private readonly writer: OrderWriter,
    private readonly config: AppConfig,
    private readonly queries: OrderStatusQueries,
    private readonly transactions: OrderTransactionLog,
  ) {}

  /**
   * Expires one locked pending order inside the caller's transaction: the log entry (by `principal`, or by the
   * system when null), then the state change with `last_modified = now`.
   */
  async expireLocked(em: EntityManager, order: Order, principal: Principal | null, now: Date): Promise<void> {
    await this.audit.record(em, principal, {
      organizerId: order.organizerId,
      eventId: order.eventId,
      contentType: 'order',
      objectId: order.id,
      action: ORDER_EXPIRED,
      data: {},
    });
    const change: OrderChange = { status: 'e' };
    await this.writer.change(em, order, change, now);
    await this.transactions.sync(em, order.id, now);
  }

  /**
   * Expires every order due at `now` (see {@link isDue}), in batches of `ORDER_EXPIRY_BATCH` orders, each batch its
   * own short transaction: the due orders are locked with `FOR UPDATE SKIP LOCKED` (an order another worker or a
   * status action holds is left for the next tick, so two workers never expire the same order), checked again
   * under the lock, and expired. Stops after `ORDER_EXPIRY_MAX_BATCHES` batches so a tick stays short; the next
   * tick continues.
   * @param now the cut-off (default the current time)
   * @returns how many orders were expired
   */
  @Periodic('orders.expire')
  async expireDue(now: Date = new Date()): Promise<number> {
    let total = 0;
    const size = this.config.orderExpiryBatch;
    for (let batch = 0; batch < this.config.orderExpiryMaxBatches; batch++) {
      const { locked, expired } = await this.db.transaction((em) => this.expireBatch(em, now, size));
      total += expired;
      if (locked < size) break;
    }
    if (total > 0) this.logger.log(`${total} pending orders expired`);
    return total;
  }

  private async expireBatch(
    em: EntityManager,
    now: Date,
    size: number,
  ): Promise<{ locked: number; expired: number }> {
    await setLockTimeout(em, this.config.orderLockTimeoutMs);
    const orders = await this.queries.expirable(em, now, size);
    let expired = 0;
    for (const order of orders) {
      // The rows were read after their locks were taken; checked again all the same, so that the rule holds
      // whatever the query above becomes.
      if (!isDue(order, now)) continue;
      await this.expireLocked(em, order, null, now);
      expired += 1;
    }
    return { locked: orders.length, expired };
  }
}
