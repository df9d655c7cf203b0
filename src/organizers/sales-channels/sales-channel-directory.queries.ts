import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { BUILT_IN_CHANNELS } from './built-in-channels';
import { SalesChannel } from './sales-channel.entity';

/**
 * The organizer's sales channels as other contexts need them (compat §3.10 "Sales channels"): the identifiers
 * that `limit_sales_channels`, the legacy `sales_channels` and an order's `sales_channel` may name, and the list
 * that "all channels" stands for. Port-free (in `TenancyModule`), so the catalogue and the sales side can ask it.
 */
@Injectable()
export class SalesChannelDirectory {
  /** The organizer's channel identifiers, sorted (one statement, no lock). */
  async identifiers(em: EntityManager, organizerId: number): Promise<string[]> {
    const rows: { identifier: string }[] = await em.query(
      'SELECT identifier FROM sales_channel WHERE organizer_id = $1 ORDER BY identifier',
      [organizerId],
    );
    return rows.map((r) => r.identifier);
  }

  /**
   * Fragment, scalar subquery: the channel identifiers (sorted `text[]`) of the organizer of the event whose id
   * is the SQL expression `eventId`, for a read that must stay one statement (an item list). Aliases `scd`,
   * `sce`.
   */
  identifiersOfEventSql(eventId: string): SqlFragment {
    return sqlFragment(
      `(SELECT coalesce(array_agg(scd.identifier ORDER BY scd.identifier), '{}'::text[]) FROM sales_channel scd
         WHERE scd.organizer_id = (SELECT sce.organizer_id FROM event sce WHERE sce.id = ${eventId}))`,
    );
  }

  /** Whether the organizer has a channel with this identifier (one statement). */
  async exists(em: EntityManager, organizerId: number, identifier: string): Promise<boolean> {
    return em.getRepository(SalesChannel).existsBy({ organizerId, identifier });
  }

  /** Creates the built-in `web` and `api` channels the organizer lacks (one statement; `ON CONFLICT DO NOTHING`). */
  async ensureBuiltIns(em: EntityManager, organizerId: number): Promise<void> {
    await em
      .getRepository(SalesChannel)
      .createQueryBuilder()
      .insert()
      .values(BUILT_IN_CHANNELS.map((c) => ({ ...c, organizerId })))
      .orIgnore()
      .execute();
  }
}
