import { Injectable } from '@nestjs/common';
import type { EntityManager, InsertResult } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OrderPosition } from '../entities/order-position.entity';

/**
 * The SQL of {@link OrderWriter} beyond TypeORM's repository calls: the live seats of an order's positions, the
 * ids and the chunked insert of new positions. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class OrderWriterQueries {
  /**
   * Sets `live_seat_id` of the order's seated positions to their seat when `live` and the position is active,
   * else to null; only rows that change are written (one statement; may violate the live-seat index).
   */
  async holdSeats(em: EntityManager, orderId: number, live: boolean): Promise<void> {
    await em.query(
      `UPDATE order_position SET live_seat_id = CASE WHEN $2 AND NOT canceled THEN seat_id END
          WHERE order_id = $1 AND seat_id IS NOT NULL
            AND live_seat_id IS DISTINCT FROM (CASE WHEN $2 AND NOT canceled THEN seat_id END)`,
      [orderId, live],
    );
  }

  /** Draws `count` ids from the `order_position` id sequence (one statement; unsorted). */
  reservePositionIds(em: EntityManager, count: number): Promise<{ id: number }[]> {
    return em.query(
      `SELECT nextval(pg_get_serial_sequence('order_position', 'id'))::int AS id FROM generate_series(1, $1)`,
      [count],
    );
  }

  /**
   * Inserts positions with the given column list (TypeORM then writes the preassigned ids); one statement, no
   * entity update. The caller chunks below PostgreSQL's bind-parameter limit.
   */
  insertPositions(
    em: EntityManager,
    columns: string[],
    chunk: readonly OrderPosition[],
  ): Promise<InsertResult> {
    return em
      .createQueryBuilder()
      .insert()
      .into(OrderPosition, columns)
      .values(chunk.map((p) => ({ ...p })) as QueryDeepPartialEntity<OrderPosition>[])
      .updateEntity(false)
      .execute();
  }
}
