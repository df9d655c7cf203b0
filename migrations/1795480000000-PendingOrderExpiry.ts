/**
 * Partial index for the scheduler's expiry of pending orders (README "Selling without overselling"): only pending
 * orders, by deadline.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class PendingOrderExpiry1795480000000 implements MigrationInterface {
  name = 'PendingOrderExpiry1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_orders_pending_expires" ON "orders" ("expires", "id") WHERE status = 'n'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_orders_pending_expires"`);
  }
}
