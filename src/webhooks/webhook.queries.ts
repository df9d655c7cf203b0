import { Injectable } from '@nestjs/common';
import { EntityManager, SelectQueryBuilder } from 'typeorm';
import { returning } from '../tasks/sql';
import { Webhook } from './webhook.entity';

/** SQL on `webhook` (compat §3.27): the organizer's list and the 410 Gone switch-off (compat §5). */
@Injectable()
export class WebhookQueries {
  /** The organizer's webhooks ordered by id, as a builder for `paginate` (rows and count: two statements). */
  listOfOrganizer(em: EntityManager, organizerId: number): SelectQueryBuilder<Webhook> {
    return em
      .getRepository(Webhook)
      .createQueryBuilder('w')
      .where('w.organizer_id = :org', { org: organizerId })
      .orderBy('w.id', 'ASC');
  }

  /** Disables an enabled webhook (row lock of the UPDATE). @returns false when it was already disabled or gone */
  async disableEnabled(em: EntityManager, webhookId: number): Promise<boolean> {
    const rows = await returning<{ id: number }>(
      em,
      'UPDATE webhook SET enabled = false WHERE id = $1 AND enabled RETURNING id',
      [webhookId],
    );
    return rows.length > 0;
  }
}
