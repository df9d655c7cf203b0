import { Injectable, Logger } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { EntityManager, In } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { TenancyQueries } from '../organizers/tenancy-queries';
import { Order } from './order.entity';
import { OrderWriter } from './order-writer';

/** Orders expired per transaction: one batch never holds many order locks for long. */
const BATCH = 200;

/**
 * Expires pending orders whose payment deadline has passed (pretix's periodic `expire_orders`; spec "States and
 * transitions": pending → expired), run by the worker's scheduler tick. Each batch locks the due orders
 * `FOR UPDATE SKIP LOCKED` (an order being paid, or expired by another worker, is skipped), and the locked read
 * re-checks status and deadline on the row's newest version, so an order paid in the same moment is never
 * expired. The change goes through {@link OrderWriter} like `mark_expired` (positions stop counting on their
 * quotas, which frees the places; voucher redemptions stay, the order may be revived) and logs
 * `pretix.event.order.expired` with no user or token (the system did it).
 */
@Injectable()
export class OrderExpiry {
  private readonly logger = new Logger('OrderExpiry');

  constructor(
    @InjectEntityManager() private readonly em: EntityManager,
    private readonly writer: OrderWriter,
    private readonly audit: AuditLogService,
    private readonly tenancy: TenancyQueries,
  ) {}

  /**
   * Expires every due pending order, batch by batch.
   * @param now the deadline cut-off (default the current time)
   * @returns how many orders were expired
   */
  async expireDue(now: Date = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.em.transaction((em) => this.expireBatch(em, now));
      total += n;
      if (n < BATCH) break;
    }
    if (total > 0) this.logger.log(`${total} pending orders expired`);
    return total;
  }

  private async expireBatch(em: EntityManager, now: Date): Promise<number> {
    const due: { id: number }[] = await em.query(
      `SELECT id FROM orders WHERE status = 'n' AND expires < $1
        ORDER BY expires, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [now, BATCH],
    );
    if (due.length === 0) return 0;
    const orders = await em.find(Order, { where: { id: In(due.map((d) => d.id)) }, order: { id: 'ASC' } });
    const organizers = await this.tenancy.organizerIdsOfEvents(em, [
      ...new Set(orders.map((o) => o.eventId)),
    ]);
    for (const order of orders) {
      await this.writer.change(em, order, { status: 'e' }, now);
      await this.audit.record(em, null, {
        organizerId: organizers.get(order.eventId)!,
        eventId: order.eventId,
        contentType: 'order',
        objectId: order.id,
        action: 'pretix.event.order.expired',
      });
    }
    return orders.length;
  }
}
