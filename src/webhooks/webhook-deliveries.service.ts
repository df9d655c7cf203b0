import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFound, ValidationFailed } from '../common/errors';
import { PageRequest, Paginated, paginate } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findParentOr403 } from '../common/persistence/find';
import type { Organizer } from '../organizers/organizer.entity';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import { returning } from '../tasks/sql';
import { Webhook } from './webhook.entity';
import { toDeliveryJson, WebhookDeliveryJson } from './webhook.presenter';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** The channel the outbox trigger and a redelivery notify; the worker listens on it. */
export const DELIVERY_CHANNEL = 'webhook_delivery';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log of a webhook (`O/webhooks/{id}/deliveries/`) and manual redelivery (issue 14). */
@Injectable()
export class WebhookDeliveriesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Deliveries of one webhook, newest first. Filters: `status` (`pending|succeeded|failed`), `action` (exact),
   * `created_since` (ISO 8601). Three statements whatever the page size (webhook, rows, count).
   * @throws ParentNotFound (403) for a webhook that is not the organizer's
   * @throws ValidationFailed 400 for an unknown status or a bad date
   */
  async list(
    organizer: Organizer,
    webhookId: number,
    filters: QueryFilters,
    page: PageRequest,
  ): Promise<Paginated<WebhookDeliveryJson>> {
    await findParentOr403(this.db.manager, Webhook, { id: webhookId, organizerId: organizer.id });
    const qb = this.db
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .where('d.webhook_id = :webhook', { webhook: webhookId })
      .orderBy('d.created', 'DESC')
      .addOrderBy('d.id', 'DESC');
    const status = filters.str('status');
    if (status !== undefined) {
      if (!DELIVERY_STATUSES.includes(status as DeliveryStatus))
        throw ValidationFailed.field(
          'status',
          `Select a valid choice. ${status} is not one of the available choices.`,
        );
      qb.andWhere('d.status = :status', { status });
    }
    const action = filters.str('action');
    if (action !== undefined) qb.andWhere('d.action = :action', { action: action.slice(0, 100) });
    const since = filters.datetime('created_since');
    if (since !== undefined) qb.andWhere('d.created >= :since', { since });
    return paginate(qb, page, (rows) => rows.map(toDeliveryJson));
  }

  /**
   * Sends a delivery again: the same payload and `webhook-id`, a fresh timestamp and signature. The delivery is
   * pending again (due now, retried for up to 3 days) and the worker is notified.
   * @throws ParentNotFound (403) for a webhook that is not the organizer's; NotFound for an unknown delivery
   */
  async redeliver(organizer: Organizer, webhookId: number, uid: string): Promise<WebhookDeliveryJson> {
    await findParentOr403(this.db.manager, Webhook, { id: webhookId, organizerId: organizer.id });
    if (!UUID.test(uid)) throw new NotFound();
    const rows: WebhookDelivery[] = await this.db.manager.transaction(async (em) => {
      const updated = await returning<{ id: string }>(
        em,
        `UPDATE webhook_delivery
            SET status = 'pending', next_attempt = now(), give_up_at = now() + interval '3 days'
          WHERE uid = $1 AND webhook_id = $2
          RETURNING id`,
        [uid, webhookId],
      );
      if (updated.length === 0) return [];
      await em.query(`SELECT pg_notify($1, '')`, [DELIVERY_CHANNEL]);
      return em.find(WebhookDelivery, { where: { id: updated[0].id } });
    });
    if (rows.length === 0) throw new NotFound();
    return toDeliveryJson(rows[0]);
  }
}
