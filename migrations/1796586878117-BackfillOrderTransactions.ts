/**
 * Data migration: transaction rows (`migrated` = true) for the orders that existed before the log, as pretix
 * backfilled them. An order that counts (pending or paid, not awaiting approval) gets +1 per active position and
 * fee at its `datetime`; a canceled order with a `cancellation_date` (not awaiting approval) gets +1 per position
 * and fee at its `datetime` and -1 for each at its `cancellation_date`; other orders (expired, denied) get none.
 * Orders that already have rows are left alone, so the migration can run on a database the log already fills.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `order_id, event_id, organizer_id, datetime, migrated, count, positionid, item_id, variation_id,
  subevent_id, price, tax_rate, tax_rule_id, tax_code, tax_value, fee_type, internal_type`;

/** Every position and fee of the orders in `o` (only the active ones where `o.active_only`), with `sign` and `at`. */
const LINES = `
  SELECT o.id AS order_id, o.event_id, o.organizer_id, o.at AS datetime, true AS migrated, o.sign AS count, p.positionid, p.item_id, p.variation_id,
         p.subevent_id, p.price, p.tax_rate, p.tax_rule_id, NULL::varchar, p.tax_value, NULL::varchar, NULL::varchar
    FROM o JOIN order_position p ON p.order_id = o.id
   WHERE NOT (o.active_only AND p.canceled)
  UNION ALL
  SELECT o.id, o.event_id, o.organizer_id, o.at, true, o.sign, NULL, NULL, NULL, NULL, f.value, f.tax_rate,
         f.tax_rule_id, NULL, f.tax_value, f.fee_type, f.internal_type
    FROM o JOIN order_fee f ON f.order_id = o.id
   WHERE NOT (o.active_only AND f.canceled)`;

const FRESH = `NOT od.require_approval AND NOT EXISTS (SELECT 1 FROM order_transaction t WHERE t.order_id = od.id)`;

export class BackfillOrderTransactions1796586878117 implements MigrationInterface {
  name = 'BackfillOrderTransactions1796586878117';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Canceled orders: what they sold, at the order's time, then its cancellation (one statement, sorted).
    await queryRunner.query(
      `WITH c AS (SELECT od.* FROM orders od WHERE od.status = 'c' AND od.cancellation_date IS NOT NULL AND ${FRESH}),
            o AS (SELECT c.id, c.event_id, c.organizer_id, c.datetime AS at, 1 AS sign, false AS active_only FROM c
                  UNION ALL
                  SELECT c.id, c.event_id, c.organizer_id, c.cancellation_date, -1, false FROM c)
       INSERT INTO order_transaction (${COLUMNS})
       SELECT * FROM (${LINES}) l ORDER BY l.order_id, l.datetime, l.count DESC, coalesce(l.positionid, 0)`,
    );
    // Orders that count: their active lines at the order's time.
    await queryRunner.query(
      `WITH o AS (SELECT od.id, od.event_id, od.organizer_id, od.datetime AS at, 1 AS sign, true AS active_only
                    FROM orders od WHERE od.status IN ('n', 'p') AND ${FRESH})
       INSERT INTO order_transaction (${COLUMNS})
       SELECT * FROM (${LINES}) l ORDER BY l.order_id, coalesce(l.positionid, 0)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM order_transaction WHERE migrated`);
  }
}
