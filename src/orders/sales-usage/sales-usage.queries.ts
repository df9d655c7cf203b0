import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * The SQL of the sales usage checks (compat §3.10, §3.11, §3.19, §3.25, §4.2): whether orders or carts refer to
 * an item, variation, event, date, tax rule or discount. One `SELECT EXISTS (...)` statement each; stateless.
 */
@Injectable()
export class SalesUsageQueries {
  /** Whether any order position has the item. */
  itemOrdered(em: EntityManager, id: number): Promise<boolean> {
    return exists(em, 'SELECT 1 FROM order_position WHERE item_id = $1', [id]);
  }

  /** Whether any order or cart position has the variation. */
  variationInUse(em: EntityManager, variationId: number): Promise<boolean> {
    return exists(
      em,
      'SELECT 1 FROM order_position WHERE variation_id = $1 UNION ALL SELECT 1 FROM cart_position WHERE variation_id = $1',
      [variationId],
    );
  }

  /** Whether the event has any order. */
  eventHasOrders(em: EntityManager, eventId: number): Promise<boolean> {
    return exists(em, 'SELECT 1 FROM orders WHERE event_id = $1', [eventId]);
  }

  /** Whether any order of the organizer was placed through the sales channel `identifier`. */
  channelHasOrders(em: EntityManager, organizerId: number, identifier: string): Promise<boolean> {
    return exists(em, 'SELECT 1 FROM orders WHERE organizer_id = $1 AND sales_channel = $2', [
      organizerId,
      identifier,
    ]);
  }

  /** Whether any order position is for the date. */
  subeventHasOrders(em: EntityManager, subeventId: number): Promise<boolean> {
    return exists(em, 'SELECT 1 FROM order_position WHERE subevent_id = $1', [subeventId]);
  }

  /** Whether any order position or fee has the tax rule. */
  taxRuleUsed(em: EntityManager, taxRuleId: number): Promise<boolean> {
    return exists(
      em,
      'SELECT 1 FROM order_position WHERE tax_rule_id = $1 UNION ALL SELECT 1 FROM order_fee WHERE tax_rule_id = $1',
      [taxRuleId],
    );
  }

  /** Whether any order position has the discount. */
  discountOrdered(em: EntityManager, discountId: number): Promise<boolean> {
    return exists(em, 'SELECT 1 FROM order_position WHERE discount_id = $1', [discountId]);
  }
}

/** `SELECT EXISTS (<sql>) AS used` with the parameters. */
const exists = async (em: EntityManager, sql: string, params: unknown[]): Promise<boolean> => {
  const rows: unknown[] = await em.query(`SELECT EXISTS (${sql}) AS used`, params);
  return (rows[0] as { used: boolean }).used;
};
