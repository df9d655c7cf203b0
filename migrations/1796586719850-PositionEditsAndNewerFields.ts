/**
 * Fields pretix added since 2024 (orders `tax_rounding_mode`, `plugin_data`; positions' and fees' `tax_code`) and
 * `order_position.canceled_with_order`: which positions an order cancel canceled, so that `reactivate` revives
 * only those (positions canceled on their own stay canceled).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class PositionEditsAndNewerFields1796586719850 implements MigrationInterface {
  name = 'PositionEditsAndNewerFields1796586719850';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD "canceled_with_order" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "order_position" ADD "tax_code" character varying(190)`);
    await queryRunner.query(`ALTER TABLE "order_fee" ADD "tax_code" character varying(190)`);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "tax_rounding_mode" character varying(100) NOT NULL DEFAULT 'line'`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "plugin_data" jsonb NOT NULL DEFAULT '{}'`);
    // Orders canceled before this column existed: every canceled position of a canceled order went with it.
    await queryRunner.query(
      `UPDATE "order_position" p SET "canceled_with_order" = true
         FROM "orders" o WHERE o.id = p.order_id AND o.status = 'c' AND p.canceled`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "plugin_data"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "tax_rounding_mode"`);
    await queryRunner.query(`ALTER TABLE "order_fee" DROP COLUMN "tax_code"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP COLUMN "tax_code"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP COLUMN "canceled_with_order"`);
  }
}
