/** Indexes for the gift card transactions' links to their event, payment and refund (every foreign key has one). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class GiftCardTransactionLinkIndexes1796592982117 implements MigrationInterface {
  name = 'GiftCardTransactionLinkIndexes1796592982117';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_b77257a4923b344d82fa24a99e" ON "giftcard_transaction" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_c3d9b6de8c78f2ba6678db98c8" ON "giftcard_transaction" ("payment_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_1d64472e516256cdd2e427233e" ON "giftcard_transaction" ("refund_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_1d64472e516256cdd2e427233e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c3d9b6de8c78f2ba6678db98c8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b77257a4923b344d82fa24a99e"`);
  }
}
