/**
 * Maintained sales counts per product (architecture.md "Concurrency"): the `product_sales` table,
 * `order_position.exited` (the last successful scan was an exit), and the triggers that keep both in step with the
 * rows in the same transaction as every write:
 * - `order_position` insert, update and delete (statement triggers with transition tables: one upsert per
 *   statement, whatever its number of rows): each row counts with its order's current status;
 * - `orders` status changes (statement trigger): the order's positions move between paid and pending or stop
 *   counting; an order deleted (row trigger, before its positions cascade) takes its positions' counts with it;
 * - `checkin` insert, update and delete: `order_position.exited` is recomputed for the positions touched, which
 *   moves `exited` through the position trigger.
 * Counts are upserted in product order, so two transactions touching the same products lock them in the same order.
 * The counts of existing rows are filled in before the triggers are created.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

/** One product's contribution of a set of position rows `p` joined to their orders `o`, times `sign`. */
const contribution = (sign: string) => `
  ${sign} * (o.status = 'p' AND NOT p.canceled)::int AS paid,
  ${sign} * (o.status = 'n' AND NOT p.canceled)::int AS pending,
  ${sign} * (o.status = 'p' AND NOT p.canceled AND p.exited)::int AS exited`;

/** Adds the summed deltas `d(event_id, item_id, variation_id, subevent_id, paid, pending, exited)` to the counts. */
const applyDeltas = (deltas: string) => `
  INSERT INTO product_sales AS ps (event_id, item_id, variation_id, subevent_id, paid, pending, exited)
  SELECT event_id, item_id, variation_id, subevent_id, SUM(paid), SUM(pending), SUM(exited)
    FROM (${deltas}) d
   GROUP BY event_id, item_id, variation_id, subevent_id
  HAVING SUM(paid) <> 0 OR SUM(pending) <> 0 OR SUM(exited) <> 0
   ORDER BY item_id, COALESCE(variation_id, 0), COALESCE(subevent_id, 0)
  ON CONFLICT (item_id, (COALESCE(variation_id, 0)), (COALESCE(subevent_id, 0))) DO UPDATE
     SET paid = ps.paid + EXCLUDED.paid, pending = ps.pending + EXCLUDED.pending,
         exited = ps.exited + EXCLUDED.exited`;

const positionRows = (table: string, sign: string) => `
  SELECT p.event_id, p.item_id, p.variation_id, p.subevent_id, ${contribution(sign)}
    FROM ${table} p JOIN orders o ON o.id = p.order_id`;

/** Sets `order_position.exited` of the positions `touched(position_id)` from their last successful scan. */
const exitStates = (touched: string) => `
  UPDATE order_position op SET exited = s.exited
    FROM (SELECT t.position_id AS id,
                 COALESCE((SELECT c.type = 'exit' FROM checkin c WHERE c.position_id = t.position_id AND c.successful
                            ORDER BY c.datetime DESC, c.id DESC LIMIT 1), false) AS exited
            FROM (${touched}) t) s
   WHERE op.id = s.id AND op.exited IS DISTINCT FROM s.exited`;

export class ProductSalesCounts1795811547670 implements MigrationInterface {
  name = 'ProductSalesCounts1795811547670';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "product_sales" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "item_id" integer NOT NULL, "variation_id" integer, "subevent_id" integer, "paid" integer NOT NULL DEFAULT '0', "pending" integer NOT NULL DEFAULT '0', "exited" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_2c87118be8bace114dfdcae1a3b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0dc73962fd0b819ddaf9e3777c" ON "product_sales" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "ix_product_sales_variation" ON "product_sales" ("variation_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_product_sales_product"
         ON "product_sales" ("item_id", (COALESCE("variation_id", 0)), (COALESCE("subevent_id", 0)))`,
    );
    await queryRunner.query(`ALTER TABLE "order_position" ADD "exited" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(
      `ALTER TABLE "product_sales" ADD CONSTRAINT "FK_0dc73962fd0b819ddaf9e3777c2" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );

    // Live cart positions of a product by expiry (the engine's other half), replacing the plain key indexes.
    await queryRunner.query(`DROP INDEX "public"."IDX_0899daa6993381dc385f13146e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ca3cd4e2e76a84497d5edd2ca7"`);
    await queryRunner.query(
      `CREATE INDEX "ix_cart_position_variation_expires" ON "cart_position" ("variation_id", "expires") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_cart_position_item_expires" ON "cart_position" ("item_id", "expires") `,
    );

    // Existing rows (before the triggers exist): exit states first, then the counts.
    await queryRunner.query(exitStates('SELECT DISTINCT position_id FROM checkin'));
    await queryRunner.query(applyDeltas(positionRows('order_position', '1')));

    await queryRunner.query(`CREATE FUNCTION "product_sales_positions"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${applyDeltas(positionRows('new_rows', '1'))};
        ELSIF TG_OP = 'DELETE' THEN
          ${applyDeltas(positionRows('old_rows', '-1'))};
        ELSE
          ${applyDeltas(`${positionRows('new_rows', '1')} UNION ALL ${positionRows('old_rows', '-1')}`)};
        END IF;
        RETURN NULL;
      END $$`);
    for (const [op, refs] of [
      ['INSERT', 'NEW TABLE AS new_rows'],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
      ['DELETE', 'OLD TABLE AS old_rows'],
    ]) {
      await queryRunner.query(`CREATE TRIGGER "product_sales_positions_${op.toLowerCase()}"
        AFTER ${op} ON "order_position" REFERENCING ${refs}
        FOR EACH STATEMENT EXECUTE FUNCTION "product_sales_positions"()`);
    }

    // An order's status moved: its positions count with the new status instead of the old one.
    await queryRunner.query(`CREATE FUNCTION "product_sales_order_status"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        ${applyDeltas(`
          SELECT p.event_id, p.item_id, p.variation_id, p.subevent_id, ${contribution('1')}
            FROM new_rows o JOIN old_rows b ON b.id = o.id AND b.status IS DISTINCT FROM o.status
            JOIN order_position p ON p.order_id = o.id
          UNION ALL
          SELECT p.event_id, p.item_id, p.variation_id, p.subevent_id, ${contribution('-1')}
            FROM old_rows o JOIN new_rows n ON n.id = o.id AND n.status IS DISTINCT FROM o.status
            JOIN order_position p ON p.order_id = o.id`)};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "product_sales_order_status"
      AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION "product_sales_order_status"()`);

    // An order deleted: its positions stop counting now (they cascade after the order row is gone, when the
    // position trigger no longer finds the order).
    await queryRunner.query(`CREATE FUNCTION "product_sales_order_delete"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        ${applyDeltas(`
          SELECT p.event_id, p.item_id, p.variation_id, p.subevent_id, ${contribution('-1')}
            FROM order_position p JOIN (SELECT OLD.id, OLD.status) o ON o.id = p.order_id`)};
        RETURN OLD;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "product_sales_order_delete"
      BEFORE DELETE ON "orders" FOR EACH ROW EXECUTE FUNCTION "product_sales_order_delete"()`);

    // Check-ins written: the positions touched get their exit state again (the position trigger moves `exited`).
    await queryRunner.query(`CREATE FUNCTION "position_exit_state"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${exitStates('SELECT position_id FROM new_rows')};
        ELSIF TG_OP = 'DELETE' THEN
          ${exitStates('SELECT position_id FROM old_rows')};
        ELSE
          ${exitStates('SELECT position_id FROM new_rows UNION SELECT position_id FROM old_rows')};
        END IF;
        RETURN NULL;
      END $$`);
    for (const [op, refs] of [
      ['INSERT', 'NEW TABLE AS new_rows'],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'],
      ['DELETE', 'OLD TABLE AS old_rows'],
    ]) {
      await queryRunner.query(`CREATE TRIGGER "position_exit_state_${op.toLowerCase()}"
        AFTER ${op} ON "checkin" REFERENCING ${refs}
        FOR EACH STATEMENT EXECUTE FUNCTION "position_exit_state"()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const op of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "position_exit_state_${op}" ON "checkin"`);
      await queryRunner.query(`DROP TRIGGER "product_sales_positions_${op}" ON "order_position"`);
    }
    await queryRunner.query(`DROP TRIGGER "product_sales_order_delete" ON "orders"`);
    await queryRunner.query(`DROP TRIGGER "product_sales_order_status" ON "orders"`);
    await queryRunner.query(`DROP FUNCTION "position_exit_state"()`);
    await queryRunner.query(`DROP FUNCTION "product_sales_order_delete"()`);
    await queryRunner.query(`DROP FUNCTION "product_sales_order_status"()`);
    await queryRunner.query(`DROP FUNCTION "product_sales_positions"()`);
    await queryRunner.query(`ALTER TABLE "product_sales" DROP CONSTRAINT "FK_0dc73962fd0b819ddaf9e3777c2"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP COLUMN "exited"`);
    await queryRunner.query(`DROP TABLE "product_sales"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cart_position_item_expires"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cart_position_variation_expires"`);
    await queryRunner.query(
      `CREATE INDEX "IDX_ca3cd4e2e76a84497d5edd2ca7" ON "cart_position" ("variation_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0899daa6993381dc385f13146e" ON "cart_position" ("item_id") `);
  }
}
