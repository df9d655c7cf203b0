import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SalesChannel } from './sales-channel.entity';

/** The SQL of `sales_channel` for `O/saleschannels/`. Stateless; runs in the caller's `em`. */
@Injectable()
export class SalesChannelQueries {
  /**
   * A page of the organizer's channels in pretix's order (`position`, `type`, `identifier`, `id`); filters
   * `type` and `identifier` (exact). Two statements, no lock.
   */
  page<T>(
    em: EntityManager,
    organizerId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: SalesChannel[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(SalesChannel)
      .createQueryBuilder('c')
      .where('c.organizer_id = :organizer', { organizer: organizerId });
    const type = filters.str('type');
    if (type !== undefined) qb.andWhere('c.type = :type', { type });
    const identifier = filters.str('identifier');
    if (identifier !== undefined) qb.andWhere('c.identifier = :identifier', { identifier });
    qb.orderBy('c.position', 'ASC')
      .addOrderBy('c.type', 'ASC')
      .addOrderBy('c.identifier', 'ASC')
      .addOrderBy('c.id', 'ASC');
    return paginateRows(qb, page, present);
  }

  /** The organizer's channel with this identifier (row-locked when `lock`), or null. */
  find(
    em: EntityManager,
    organizerId: number,
    identifier: string,
    lock = false,
  ): Promise<SalesChannel | null> {
    return em.getRepository(SalesChannel).findOne({
      where: { organizerId, identifier },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Ids of the organizer's events (one statement). */
  async eventIds(em: EntityManager, organizerId: number): Promise<number[]> {
    const rows: { id: number }[] = await em.query('SELECT id FROM event WHERE organizer_id = $1', [
      organizerId,
    ]);
    return rows.map((r) => r.id);
  }

  /** Removes `identifier` from the `limit_sales_channels` of the organizer's events (one statement). */
  async forgetOnEvents(em: EntityManager, organizerId: number, identifier: string): Promise<void> {
    await em.query(
      `UPDATE event SET limit_sales_channels = array_remove(limit_sales_channels, $2::text)
        WHERE organizer_id = $1 AND $2::text = ANY(limit_sales_channels)`,
      [organizerId, identifier],
    );
  }
}
