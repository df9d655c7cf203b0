import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFound, ValidationFailed } from '../common/errors';
import { paginate } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { QueryFilters } from '../common/listing/query-filters';
import { findParentOr403 } from '../common/persistence/find';
import type { Organizer } from '../organizers/organizer.entity';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryQueries } from './webhook-delivery.queries';
import { Webhook } from './webhook.entity';
import { toDeliveryJson, WebhookDeliveryJson } from './webhook.presenter';

/** The statuses a delivery can have (`status` filter of the delivery log). */
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The delivery log of a webhook (`O/webhooks/{id}/deliveries/`) and manual redelivery (README "Webhooks"). */
@Injectable()
export class WebhookDeliveriesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly deliveries: WebhookDeliveryQueries,
  ) {}

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
    const status = filters.str('status');
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as DeliveryStatus))
      throw ValidationFailed.field(
        'status',
        `Select a valid choice. ${status} is not one of the available choices.`,
      );
    const action = filters.str('action');
    const qb = this.deliveries.logOfWebhook(this.db.manager, webhookId, {
      status: status as DeliveryStatus | undefined,
      action: action?.slice(0, 100),
      createdSince: filters.datetime('created_since'),
    });
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
      const id = await this.deliveries.makePendingAgain(em, uid, webhookId);
      if (id === null) return [];
      await this.deliveries.notifyWorker(em);
      return em.find(WebhookDelivery, { where: { id } });
    });
    if (rows.length === 0) throw new NotFound();
    return toDeliveryJson(rows[0]);
  }
}
