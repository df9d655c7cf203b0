import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { OrderFee } from '../entities/order-fee.entity';
import { OrderPosition } from '../entities/order-position.entity';

/** The columns of a position a change may write (wire of {@link OrderChangeQueries.updatePositions}). */
export interface PositionUpdate {
  id: number;
  order_id: number;
  item_id: number;
  variation_id: number | null;
  subevent_id: number | null;
  seat_id: number | null;
  price: string;
  tax_rate: string;
  tax_value: string;
  tax_rule_id: number | null;
  tax_code: string | null;
  valid_from: string | null;
  valid_until: string | null;
  secret: string;
  canceled: boolean;
  attendee_name_parts: Record<string, string>;
  attendee_email: string | null;
  company: string | null;
  street: string | null;
  zipcode: string | null;
  city: string | null;
  country: string | null;
  state: string | null;
}

/** The columns of a fee a change may write. */
export interface FeeUpdate {
  id: number;
  value: string;
  tax_rate: string;
  tax_value: string;
  tax_rule_id: number | null;
  tax_code: string | null;
  canceled: boolean;
}

/**
 * The SQL of order changes (compat §4.4 "Changing order contents") on the orders' own tables: the order's
 * positions and fees as read under the order lock, set-based updates of the changed rows (one statement whatever
 * their number), the live seats of the orders touched, and the taken ticket secrets. Stateless; every method runs
 * on the caller's `em`.
 */
@Injectable()
export class OrderChangeQueries {
  /** Every position of the order, canceled ones included (for `positionid` numbering), by `positionid`. */
  positions(em: EntityManager, orderId: number): Promise<OrderPosition[]> {
    return em.find(OrderPosition, { where: { orderId }, order: { positionid: 'ASC', id: 'ASC' } });
  }

  /** Every fee of the order, canceled ones included, by id. */
  fees(em: EntityManager, orderId: number): Promise<OrderFee[]> {
    return em.find(OrderFee, { where: { orderId }, order: { id: 'ASC' } });
  }

  /**
   * The order of the event with this position id (locked by the caller through its code): the order code, or null
   * for an unknown position or one of another event (one statement).
   */
  async orderCodeOfPosition(em: EntityManager, eventId: number, positionId: number): Promise<string | null> {
    const rows: { code: string }[] = await em.query(
      `SELECT o.code FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.id = $1 AND p.event_id = $2 AND NOT p.canceled`,
      [positionId, eventId],
    );
    return rows[0]?.code ?? null;
  }

  /** Whether an order of the organizer has this code (a split-off order takes a free one). */
  async codeTaken(em: EntityManager, organizerId: number, code: string): Promise<boolean> {
    const rows: unknown[] = await em.query('SELECT 1 FROM orders WHERE organizer_id = $1 AND code = $2', [
      organizerId,
      code,
    ]);
    return rows.length > 0;
  }

  /** Which of `secrets` positions of the event use, other than the positions `except` (one statement). */
  async takenSecrets(
    em: EntityManager,
    eventId: number,
    secrets: readonly string[],
    except: readonly number[],
  ): Promise<Set<string>> {
    if (secrets.length === 0) return new Set();
    const rows: { secret: string }[] = await em.query(
      `SELECT secret FROM order_position WHERE event_id = $1 AND secret = ANY($2) AND NOT (id = ANY($3))`,
      [eventId, secrets, except],
    );
    return new Set(rows.map((r) => r.secret));
  }

  /** Writes the changed positions (one statement for all of them). */
  async updatePositions(em: EntityManager, rows: readonly PositionUpdate[]): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `UPDATE order_position p SET
          order_id = v.order_id, item_id = v.item_id, variation_id = v.variation_id, subevent_id = v.subevent_id,
          seat_id = v.seat_id, price = v.price, tax_rate = v.tax_rate, tax_value = v.tax_value,
          tax_rule_id = v.tax_rule_id, tax_code = v.tax_code, valid_from = v.valid_from, valid_until = v.valid_until, secret = v.secret,
          canceled = v.canceled, attendee_name_parts = v.attendee_name_parts, attendee_email = v.attendee_email,
          company = v.company, street = v.street, zipcode = v.zipcode, city = v.city, country = v.country,
          state = v.state
        FROM jsonb_to_recordset($1::jsonb) AS v(
          id int, order_id int, item_id int, variation_id int, subevent_id int, seat_id int, price numeric,
          tax_rate numeric, tax_value numeric, tax_rule_id int, tax_code text, valid_from timestamptz, valid_until timestamptz,
          secret text, canceled boolean, attendee_name_parts jsonb, attendee_email text, company text,
          street text, zipcode text, city text, country text, state text)
       WHERE p.id = v.id`,
      [JSON.stringify(rows)],
    );
  }

  /** Writes the changed fees (one statement for all of them). */
  async updateFees(em: EntityManager, rows: readonly FeeUpdate[]): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `UPDATE order_fee f SET value = v.value, tax_rate = v.tax_rate, tax_value = v.tax_value,
          tax_rule_id = v.tax_rule_id, tax_code = v.tax_code, canceled = v.canceled
        FROM jsonb_to_recordset($1::jsonb) AS v(id int, value numeric, tax_rate numeric, tax_value numeric,
          tax_rule_id int, tax_code text, canceled boolean)
       WHERE f.id = v.id`,
      [JSON.stringify(rows)],
    );
  }

  /**
   * Makes the seated positions of the orders hold their seats exactly while their order is pending or paid and
   * the position active (`live_seat_id`). Two statements, so that seats swapped between positions never meet in
   * the live-seat index: first every live seat that moves is let go, then the new ones are taken (the second may
   * violate the index when another order holds a seat).
   */
  async holdSeats(em: EntityManager, orderIds: readonly number[]): Promise<void> {
    const target = `(CASE WHEN o.status IN ('n', 'p') AND NOT p.canceled THEN p.seat_id END)`;
    await em.query(
      `UPDATE order_position p SET live_seat_id = NULL FROM orders o
        WHERE o.id = p.order_id AND p.order_id = ANY($1) AND p.live_seat_id IS NOT NULL
          AND p.live_seat_id IS DISTINCT FROM ${target}`,
      [orderIds],
    );
    await em.query(
      `UPDATE order_position p SET live_seat_id = ${target} FROM orders o
        WHERE o.id = p.order_id AND p.order_id = ANY($1) AND p.seat_id IS NOT NULL
          AND p.live_seat_id IS DISTINCT FROM ${target}`,
      [orderIds],
    );
  }

  /** Keeps ticket secrets as revoked (`revoked_secret`), so that scanning one answers `revoked` (one statement). */
  async revokeSecrets(
    em: EntityManager,
    eventId: number,
    revoked: readonly { positionId: number; secret: string }[],
  ): Promise<void> {
    if (revoked.length === 0) return;
    await em.query(
      `INSERT INTO revoked_secret (event_id, position_id, secret)
         SELECT $1, * FROM unnest($2::int[], $3::text[])`,
      [eventId, revoked.map((r) => r.positionId), revoked.map((r) => r.secret)],
    );
  }
}
