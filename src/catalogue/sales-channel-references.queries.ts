import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SalesChannelReferences } from '../organizers/sales-channels/sales-channel-usage.port';

/** Catalogue tables whose `limit_sales_channels` name the organizer's channels, with the event they belong to. */
const TABLES: readonly { table: string; eventOf: string }[] = [
  { table: 'item', eventOf: 't.event_id' },
  { table: 'discount', eventOf: 't.event_id' },
  { table: 'item_variation', eventOf: '(SELECT i.event_id FROM item i WHERE i.id = t.item_id)' },
];

/**
 * The catalogue's answer to the tenancy roots' SALES_CHANNEL_REFERENCES port: a deleted channel disappears from
 * the `limit_sales_channels` of the organizer's items, variations and discounts (pretix drops the many-to-many
 * rows with the channel). One statement per table, on the caller's `em`.
 */
@Injectable()
export class CatalogueSalesChannelReferences implements SalesChannelReferences {
  async forgetChannel(em: EntityManager, eventIds: number[], identifier: string): Promise<void> {
    if (eventIds.length === 0) return;
    for (const { table, eventOf } of TABLES) {
      await em.query(
        `UPDATE ${table} t SET limit_sales_channels = array_remove(t.limit_sales_channels, $2::text)
          WHERE $2::text = ANY(t.limit_sales_channels) AND ${eventOf} = ANY($1::int[])`,
        [eventIds, identifier],
      );
    }
  }
}
