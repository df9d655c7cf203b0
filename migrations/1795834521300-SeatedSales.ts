/**
 * Seated sales (README "Selling without overselling"): order positions, cart positions and vouchers take seats. A
 * seat is sold or reserved at most once, enforced per table by partial unique indexes (the services also check
 * across the three tables under the seat rows' locks): `order_position.live_seat_id` (the seat while the order is
 * pending or paid and the position active), `cart_position.seat_id`, `voucher.seat_id`. The seat keys are set to
 * null when a seat goes with a change of plan (which refuses to drop sold or reserved seats first).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class SeatedSales1795834521300 implements MigrationInterface {
  name = 'SeatedSales1795834521300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_position" ADD "live_seat_id" integer`);
    await queryRunner.query(`CREATE INDEX "IDX_caf591b5e448e76e7dda925008" ON "order_position" ("seat_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_order_position_live_seat" ON "order_position" ("live_seat_id") WHERE "live_seat_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_cart_position_seat" ON "cart_position" ("seat_id") WHERE "seat_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_voucher_seat" ON "voucher" ("seat_id") WHERE "seat_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_350d9d5b1296caf3028ffbe9978" FOREIGN KEY ("seat_id") REFERENCES "seat"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_caf591b5e448e76e7dda925008f" FOREIGN KEY ("seat_id") REFERENCES "seat"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_3e10c590e7878f8b67dc91b5f43" FOREIGN KEY ("live_seat_id") REFERENCES "seat"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_3e10c590e7878f8b67dc91b5f43"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_caf591b5e448e76e7dda925008f"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_350d9d5b1296caf3028ffbe9978"`);
    await queryRunner.query(`DROP INDEX "public"."uq_voucher_seat"`);
    await queryRunner.query(`DROP INDEX "public"."uq_cart_position_seat"`);
    await queryRunner.query(`DROP INDEX "public"."uq_order_position_live_seat"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_caf591b5e448e76e7dda925008"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP COLUMN "live_seat_id"`);
  }
}
