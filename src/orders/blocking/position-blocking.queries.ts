import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { OrderPosition } from '../entities/order-position.entity';
import { RevokedSecret } from '../entities/revoked-secret.entity';
import { BlockedSecret } from './blocked-secret.entity';

/** A position as the blocking needs it, locked. */
export interface BlockingTarget {
  id: number;
  orderId: number;
  orderCode: string;
  positionid: number;
  secret: string;
  blocked: string[] | null;
}

/**
 * The SQL of ticket blocking and the secret lists scanners download (pretix "Order position endpoints"
 * `add_block`/`remove_block`, `E/blockedsecrets/`, `E/revokedsecrets/`). Stateless; every method runs on the
 * caller's `em`.
 */
@Injectable()
export class PositionBlockingQueries {
  /**
   * Locks the order of the event's not-canceled position `id` and then the position (`FOR UPDATE`, order first as
   * every order change does); null when there is no such position (one statement).
   */
  async lockPosition(em: EntityManager, eventId: number, id: number): Promise<BlockingTarget | null> {
    const rows: BlockingTarget[] = await em.query(
      `SELECT p.id, p.order_id AS "orderId", o.code AS "orderCode", p.positionid, p.secret, p.blocked
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.event_id = $1 AND p.id = $2 AND NOT p.canceled
          FOR UPDATE OF o, p`,
      [eventId, id],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets the position's `blocked` (null when no block is left), upserts its secret's row in `blocked_secret`
   * (`blocked` = whether any block is left, `updated` = `at`) and moves the order's `last_modified` (one statement).
   */
  async setBlocked(
    em: EntityManager,
    eventId: number,
    target: BlockingTarget,
    blocked: string[] | null,
    at: Date,
  ): Promise<void> {
    await em.query(
      `WITH pos AS (UPDATE order_position SET blocked = $3::jsonb WHERE id = $2 RETURNING id),
            ord AS (UPDATE orders SET last_modified = $6 WHERE id = $5 RETURNING id)
       INSERT INTO blocked_secret (event_id, position_id, secret, blocked, updated)
         SELECT $1, pos.id, $4, $3::jsonb IS NOT NULL, $6 FROM pos, ord
       ON CONFLICT (event_id, secret)
         DO UPDATE SET blocked = EXCLUDED.blocked, updated = EXCLUDED.updated, position_id = EXCLUDED.position_id`,
      [
        eventId,
        target.id,
        blocked === null ? null : JSON.stringify(blocked),
        target.secret,
        target.orderId,
        at,
      ],
    );
  }

  /**
   * One page of the event's blocked secrets: filters `updated_since` (at or after), `blocked`; ordering `id`,
   * `updated` (default `-updated,-id`). One statement.
   * @throws ValidationFailed for a malformed filter value
   */
  blockedPage<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: BlockedSecret[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(BlockedSecret)
      .createQueryBuilder('b')
      .where('b.event_id = :event', { event: eventId });
    const since = filters.datetime('updated_since');
    if (since !== undefined) qb.andWhere('b.updated >= :since', { since });
    const blocked = filters.bool('blocked');
    if (blocked !== undefined) qb.andWhere('b.blocked = :blocked', { blocked });
    applyOrdering(qb, filters, { id: 'b.id', updated: 'b.updated' }, ['-updated', '-id']);
    return paginateRows(qb, page, present);
  }

  /**
   * One page of the event's revoked secrets: filter `created_since` (at or after); ordering `id`, `created`
   * (default `-created,-id`). One statement.
   * @throws ValidationFailed for a malformed filter value
   */
  revokedPage<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: RevokedSecret[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(RevokedSecret)
      .createQueryBuilder('r')
      .where('r.event_id = :event', { event: eventId });
    const since = filters.datetime('created_since');
    if (since !== undefined) qb.andWhere('r.created >= :since', { since });
    applyOrdering(qb, filters, { id: 'r.id', created: 'r.created' }, ['-created', '-id']);
    return paginateRows(qb, page, present);
  }

  /**
   * Fragment, scalar subquery: the event's secrets revoked or (un)blocked with a change stamp (`changed_xid`,
   * migration `ScannerDeltaStamps`) in `[lo, hi)`, as JSON `{"revoked": [secret, …], "blocked": [{"secret",
   * "blocked"}, …]}` by id, for the scanners' delta sync (`E/revokedsecrets/` and `E/blockedsecrets/` since a
   * cursor). `eventId` an integer, `lo`/`hi` SQL bigint expressions of the caller; served by the indexes
   * `ix_revoked_secret_event_changed` and `ix_blocked_secret_event_changed`. Aliases `r`, `b` inside.
   */
  static changedSecrets(eventId: number, lo: string, hi: string): SqlFragment {
    const event = String(Math.trunc(eventId));
    return sqlFragment(`jsonb_build_object(
      'revoked', (SELECT coalesce(jsonb_agg(r.secret ORDER BY r.id), '[]'::jsonb) FROM revoked_secret r
                   WHERE r.event_id = ${event} AND r.changed_xid >= ${lo} AND r.changed_xid < ${hi}),
      'blocked', (SELECT coalesce(jsonb_agg(jsonb_build_object('secret', b.secret, 'blocked', b.blocked) ORDER BY b.id),
                          '[]'::jsonb) FROM blocked_secret b
                   WHERE b.event_id = ${event} AND b.changed_xid >= ${lo} AND b.changed_xid < ${hi}))`);
  }

  /** The position row (for presenting it after a change). */
  position(em: EntityManager, id: number): Promise<OrderPosition | null> {
    return em.findOne(OrderPosition, { where: { id } });
  }
}
