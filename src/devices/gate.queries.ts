import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { paginateRows } from '../common/listing/page-query';
import { PageRequest, Paginated } from '../common/listing/pagination';
import { Gate } from './gate.entity';

/** The SQL of gates (pretix `Gate`). Stateless; runs in the caller's `em`. */
@Injectable()
export class GateQueries {
  /** A page of the organizer's gates, ordered by name then id (pretix orders gates by name). One statement. */
  page(em: EntityManager, organizerId: number, page: PageRequest): Promise<Paginated<Gate>> {
    const qb = em
      .getRepository(Gate)
      .createQueryBuilder('g')
      .where('g.organizer_id = :org', { org: organizerId })
      .orderBy('g.name', 'ASC')
      .addOrderBy('g.id', 'ASC');
    return paginateRows(qb, page, (rows) => rows);
  }

  /** Whether another gate of the organizer has this identifier (case-insensitive, as pretix compares). */
  async identifierTaken(
    em: EntityManager,
    organizerId: number,
    identifier: string,
    exceptId: number | null,
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM gate WHERE organizer_id = $1 AND lower(identifier) = lower($2) AND id <> $3 LIMIT 1',
      [organizerId, identifier, exceptId ?? 0],
    );
    return rows.length > 0;
  }

  /** Serialises identifier checks of one organizer's gates (transaction-scoped advisory lock). */
  async lockIdentifiers(em: EntityManager, organizerId: number): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`gate_identifier:${organizerId}`]);
  }
}
