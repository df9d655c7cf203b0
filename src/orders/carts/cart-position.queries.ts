import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CartPosition } from './cart-position.entity';

/** Rows deleted per statement of {@link CartPositionQueries.purgeExpired}, so one purge never holds many row locks for long. */
const BATCH = 5000;

/** A cart position the delete removed. */
export interface DeletedCartPositionRow {
  id: number;
  cart_id: string;
}

/** Live cart positions holding one voucher. */
export interface VoucherHoldRow {
  voucher_id: number;
  n: number;
}

/**
 * The SQL of `cart_position` (compat §3.2): the API list and detail, the inserts, deletes and locks of the
 * cart writer, the voucher holds of live carts and the purge of expired positions. Stateless; every method runs
 * on the caller's `em`.
 */
@Injectable()
export class CartPositionQueries {
  /** The event's positions whose cart id ends in `suffix`, aliased `c` (a builder for ordering and paging). */
  listQuery(em: EntityManager, eventId: number, suffix: string): SelectQueryBuilder<CartPosition> {
    return em
      .getRepository(CartPosition)
      .createQueryBuilder('c')
      .where('c.event_id = :event', { event: eventId })
      .andWhere('c.cart_id LIKE :suffix', { suffix: `%${suffix}` });
  }

  /** One position of the event by id whose cart id ends in `suffix`, aliased `c` (a builder). */
  oneQuery(em: EntityManager, eventId: number, id: number, suffix: string): SelectQueryBuilder<CartPosition> {
    return em
      .getRepository(CartPosition)
      .createQueryBuilder('c')
      .where('c.id = :id AND c.event_id = :event AND c.cart_id LIKE :suffix', {
        id,
        event: eventId,
        suffix: `%${suffix}`,
      });
  }

  /**
   * The text and parameters of the insert of `positions` (RETURNING id, cart_id, item_id, variation_id,
   * voucher_id), for the audit log's `recordEach`, which runs it together with the log entries.
   */
  insertStatement(em: EntityManager, positions: CartPosition[]): [string, unknown[]] {
    return em
      .createQueryBuilder()
      .insert()
      .into(CartPosition)
      .values(positions as QueryDeepPartialEntity<CartPosition>[])
      .returning('id, cart_id, item_id, variation_id, voucher_id')
      .getQueryAndParameters();
  }

  /** Deletes one position of the event by id whose cart id is like `cartIdPattern`; the deleted row, if any. */
  deleteOne(
    em: EntityManager,
    id: number,
    eventId: number,
    cartIdPattern: string,
  ): Promise<DeletedCartPositionRow[]> {
    return em.query(
      `WITH gone AS (
         DELETE FROM cart_position WHERE id = $1 AND event_id = $2 AND cart_id LIKE $3 RETURNING id, cart_id
       )
       SELECT id, cart_id FROM gone`,
      [id, eventId, cartIdPattern],
    );
  }

  /** Ids of the live positions (`expires > now`) of the given carts, in id order; `FOR UPDATE` when `lock`. */
  liveIds(
    em: EntityManager,
    eventId: number,
    cartIds: readonly string[],
    now: Date,
    lock: boolean,
  ): Promise<{ id: number }[]> {
    return em.query(
      `SELECT id FROM cart_position WHERE event_id = $1 AND cart_id = ANY($2::text[]) AND expires > $3
        ORDER BY id ${lock ? 'FOR UPDATE' : ''}`,
      [eventId, [...cartIds], now],
    );
  }

  /** Deletes the given positions. */
  async deleteByIds(em: EntityManager, ids: readonly number[]): Promise<void> {
    await em.query('DELETE FROM cart_position WHERE id = ANY($1)', [[...ids]]);
  }

  /** Deletes the positions of an item (add-ons to them go by the key). */
  async deleteOfItem(em: EntityManager, itemId: number): Promise<void> {
    await em.query('DELETE FROM cart_position WHERE item_id = $1', [itemId]);
  }

  /** Live positions (`expires >= now`) holding each of the vouchers, not counting the positions `except`. */
  voucherHolds(
    em: EntityManager,
    voucherIds: readonly number[],
    now: Date,
    except: readonly number[],
  ): Promise<VoucherHoldRow[]> {
    return em.query(
      `SELECT voucher_id, count(*)::int AS n FROM cart_position
        WHERE voucher_id = ANY($1) AND expires >= $2 AND NOT (id = ANY($3)) GROUP BY voucher_id`,
      [[...voucherIds], now, [...except]],
    );
  }

  /**
   * Deletes the positions whose `expires` lies before `now`, in batches of {@link BATCH} (one statement each,
   * `FOR UPDATE SKIP LOCKED`) until a batch is short.
   * @returns how many positions were deleted
   */
  async purgeExpired(em: EntityManager, now: Date): Promise<number> {
    let total = 0;
    for (;;) {
      const rows: { n: number }[] = await em.query(
        `WITH gone AS (
         DELETE FROM cart_position WHERE id IN (
           SELECT id FROM cart_position WHERE expires < $1 ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
        [now, BATCH],
      );
      const n = rows[0]?.n ?? 0;
      total += n;
      if (n < BATCH) return total;
    }
  }
}
