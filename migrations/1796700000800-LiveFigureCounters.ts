/**
 * Maintained counters of the live figures (README "Live figures", `E/stats/`), each kept by a statement trigger in
 * the same transaction as the writes that move it, and striped so that concurrent writers of one event do not
 * queue on one row (a reader sums the stripes):
 * - `order_totals` (orders context): orders and the sum of their `total` per event and status; stripe = order id
 *   % 16. Deferred row triggers on `orders` (insert; update of `status` or `total`; delete) run at COMMIT: the
 *   stripe is locked only for the commit itself, after every other lock of the transaction (quota rows,
 *   `product_sales`), so it never serializes checkouts and never takes part in a lock cycle with them.
 * - `checkin_list_counts` (check-in context): positions checked in (a successful entry scan on the list) and inside
 *   (their last successful scan on the list is an entry) per list; stripe = position id % 8. Trigger on `checkin`
 *   insert, update, delete: the state of each (list, position) touched before the statement (the table without the
 *   new rows, plus the old ones) against after, the difference added; grouped and hash-joined, so a statement of
 *   150,000 scans costs one pass. Named to fire after `position_exit_state`
 *   (triggers of one event fire by name), so a scan locks `product_sales` before the list's stripe, as an order
 *   whose placement checks in automatically does.
 * Counters are upserted in key order (no deadlock between two writers) and only for events and lists that still
 * exist (an event being deleted cascades its orders after its counters). Existing rows are counted before the
 * triggers are created.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

const ORDER_STRIPES = 16;
const CHECKIN_STRIPES = 8;

/** Adds the order deltas `d(event_id, status, slot, n, amount)` to the totals. */
const applyTotals = (deltas: string) => `
  INSERT INTO order_totals AS t (event_id, status, slot, count, total)
  SELECT d.event_id, d.status, d.slot, SUM(d.n), SUM(d.amount)
    FROM (${deltas}) d(event_id, status, slot, n, amount)
   WHERE EXISTS (SELECT 1 FROM event e WHERE e.id = d.event_id)
   GROUP BY d.event_id, d.status, d.slot
  HAVING SUM(d.n) <> 0 OR SUM(d.amount) <> 0
   ORDER BY d.event_id, d.status, d.slot
  ON CONFLICT (event_id, status, slot) DO UPDATE
     SET count = t.count + EXCLUDED.count, total = t.total + EXCLUDED.total`;

/** Existing orders, counted once before the triggers exist. */
const ORDER_ROWS = `SELECT event_id, status, (id % ${ORDER_STRIPES})::smallint AS slot, 1 AS n, total AS amount
    FROM orders`;

/** An empty relation shaped as `checkin` (the transition table an operation does not have). */
const NO_CHECKINS = '(SELECT * FROM checkin WHERE false)';

/**
 * Adds what the statement changed to the list counts: `newRows`/`oldRows` are the transition tables (or
 * {@link NO_CHECKINS}).
 */
const applyCheckinCounts = (newRows: string, oldRows: string) => `
  WITH touched AS (
         SELECT DISTINCT list_id, position_id
           FROM (SELECT list_id, position_id FROM ${newRows} nr
                 UNION ALL SELECT list_id, position_id FROM ${oldRows} orr) x
          WHERE list_id IS NOT NULL AND position_id IS NOT NULL),
       after_rows AS (
         SELECT c.id, c.list_id, c.position_id, c.type, c.datetime
           FROM checkin c JOIN touched t ON c.position_id = t.position_id AND c.list_id = t.list_id
          WHERE c.successful),
       before_rows AS (
         SELECT a.* FROM after_rows a WHERE NOT EXISTS (SELECT 1 FROM ${newRows} n WHERE n.id = a.id)
         UNION ALL
         SELECT o.id, o.list_id, o.position_id, o.type, o.datetime
           FROM ${oldRows} o JOIN touched t ON o.position_id = t.position_id AND o.list_id = t.list_id
          WHERE o.successful),
       after_state AS (
         SELECT list_id, position_id, bool_or(type = 'entry') AS has_entry,
                (array_agg(type ORDER BY datetime DESC, id DESC))[1] = 'entry' AS is_inside
           FROM after_rows GROUP BY list_id, position_id),
       before_state AS (
         SELECT list_id, position_id, bool_or(type = 'entry') AS has_entry,
                (array_agg(type ORDER BY datetime DESC, id DESC))[1] = 'entry' AS is_inside
           FROM before_rows GROUP BY list_id, position_id),
       deltas AS (
         SELECT t.list_id, (t.position_id % ${CHECKIN_STRIPES})::smallint AS slot,
                COALESCE(a.has_entry, false)::int - COALESCE(b.has_entry, false)::int AS checked_in,
                COALESCE(a.is_inside, false)::int - COALESCE(b.is_inside, false)::int AS inside
           FROM touched t
           LEFT JOIN after_state a ON a.list_id = t.list_id AND a.position_id = t.position_id
           LEFT JOIN before_state b ON b.list_id = t.list_id AND b.position_id = t.position_id)
  INSERT INTO checkin_list_counts AS k (list_id, slot, checked_in, inside)
  SELECT d.list_id, d.slot, SUM(d.checked_in), SUM(d.inside)
    FROM deltas d
   WHERE EXISTS (SELECT 1 FROM checkin_list l WHERE l.id = d.list_id)
   GROUP BY d.list_id, d.slot
  HAVING SUM(d.checked_in) <> 0 OR SUM(d.inside) <> 0
   ORDER BY d.list_id, d.slot
  ON CONFLICT (list_id, slot) DO UPDATE
     SET checked_in = k.checked_in + EXCLUDED.checked_in, inside = k.inside + EXCLUDED.inside`;

export class LiveFigureCounters1796700000800 implements MigrationInterface {
  name = 'LiveFigureCounters1796700000800';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "checkin_list_counts" ("list_id" integer NOT NULL, "slot" smallint NOT NULL, "checked_in" integer NOT NULL DEFAULT '0', "inside" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_2f1191b82623145c805e235b708" PRIMARY KEY ("list_id", "slot"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "order_totals" ("event_id" integer NOT NULL, "status" character(1) NOT NULL, "slot" smallint NOT NULL, "count" integer NOT NULL DEFAULT '0', "total" numeric(15,2) NOT NULL DEFAULT '0', CONSTRAINT "PK_2685c594cf40c3cff703c889c33" PRIMARY KEY ("event_id", "status", "slot"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin_list_counts" ADD CONSTRAINT "FK_83e1d72ad3e1aadbeebbe409d1f" FOREIGN KEY ("list_id") REFERENCES "checkin_list"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_totals" ADD CONSTRAINT "FK_ed7d9899dd8569084ccfe0e6026" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // Existing rows, before the triggers exist.
    await queryRunner.query(applyTotals(ORDER_ROWS));
    await queryRunner.query(`
      INSERT INTO checkin_list_counts (list_id, slot, checked_in, inside)
      SELECT list_id, (position_id % ${CHECKIN_STRIPES})::smallint, COUNT(*) FILTER (WHERE has_entry),
             COUNT(*) FILTER (WHERE last_type = 'entry')
        FROM (SELECT list_id, position_id, bool_or(type = 'entry') AS has_entry,
                     (array_agg(type ORDER BY datetime DESC, id DESC))[1] AS last_type
                FROM checkin WHERE successful AND list_id IS NOT NULL AND position_id IS NOT NULL
               GROUP BY list_id, position_id) s
       GROUP BY 1, 2`);

    await queryRunner.query(`CREATE FUNCTION "order_totals_orders"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        ${applyTotals(`
          SELECT OLD.event_id, OLD.status, (OLD.id % ${ORDER_STRIPES})::smallint, -1, -OLD.total WHERE TG_OP <> 'INSERT'
          UNION ALL
          SELECT NEW.event_id, NEW.status, (NEW.id % ${ORDER_STRIPES})::smallint, 1, NEW.total WHERE TG_OP <> 'DELETE'`)};
        RETURN NULL;
      END $$`);
    for (const [op, when] of [
      ['INSERT', ''],
      ['UPDATE', 'WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.total IS DISTINCT FROM NEW.total)'],
      ['DELETE', ''],
    ]) {
      await queryRunner.query(`CREATE CONSTRAINT TRIGGER "order_totals_orders_${op.toLowerCase()}"
        AFTER ${op} ON "orders" DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW ${when} EXECUTE FUNCTION "order_totals_orders"()`);
    }
    await queryRunner.query(`CREATE FUNCTION "checkin_list_counts_checkins"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyCheckinCounts('new_rows', NO_CHECKINS)};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyCheckinCounts(NO_CHECKINS, 'old_rows')};
        ELSE
          ${applyCheckinCounts('new_rows', 'old_rows')};
        END IF;
        RETURN NULL;
      END $$`);
    for (const [op, refs] of [
      ['INSERT', 'NEW TABLE AS new_rows'],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
      ['DELETE', 'OLD TABLE AS old_rows'],
    ]) {
      await queryRunner.query(`CREATE TRIGGER "stats_checkin_counts_${op.toLowerCase()}"
        AFTER ${op} ON "checkin" REFERENCING ${refs}
        FOR EACH STATEMENT EXECUTE FUNCTION "checkin_list_counts_checkins"()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "order_totals_orders_${op}" ON "orders"`);
      await queryRunner.query(`DROP TRIGGER "stats_checkin_counts_${op}" ON "checkin"`);
    }
    await queryRunner.query(`DROP FUNCTION "checkin_list_counts_checkins"()`);
    await queryRunner.query(`DROP FUNCTION "order_totals_orders"()`);
    await queryRunner.query(`ALTER TABLE "order_totals" DROP CONSTRAINT "FK_ed7d9899dd8569084ccfe0e6026"`);
    await queryRunner.query(
      `ALTER TABLE "checkin_list_counts" DROP CONSTRAINT "FK_83e1d72ad3e1aadbeebbe409d1f"`,
    );
    await queryRunner.query(`DROP TABLE "order_totals"`);
    await queryRunner.query(`DROP TABLE "checkin_list_counts"`);
  }
}
