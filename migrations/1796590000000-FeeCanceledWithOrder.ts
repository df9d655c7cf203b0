/**
 * `order_fee.canceled_with_order`: which fees an order cancel canceled, so that `reactivate` revives only those
 * (a fee canceled on its own by an order change stays canceled), as for positions.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class FeeCanceledWithOrder1796590000000 implements MigrationInterface {
  name = 'FeeCanceledWithOrder1796590000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_fee" ADD "canceled_with_order" boolean NOT NULL DEFAULT false`);
    // Orders canceled before this column existed: every canceled fee of a canceled order went with it.
    await queryRunner.query(
      `UPDATE "order_fee" f SET "canceled_with_order" = true
         FROM "orders" o WHERE o.id = f.order_id AND o.status = 'c' AND f.canceled`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_fee" DROP COLUMN "canceled_with_order"`);
  }
}
