/**
 * Gift card transactions of order payments and refunds name their event, order and payment or refund (pretix
 * `GiftCardTransaction.order`, `.payment`, `.refund`; the API's `event` and `order`). Null for other transactions;
 * set to null when the linked row goes.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class GiftCardTransactionLinks1796586763126 implements MigrationInterface {
  name = 'GiftCardTransactionLinks1796586763126';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD "event_id" integer, ADD "order_id" integer,
        ADD "payment_id" integer, ADD "refund_id" integer`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_226186a571647b150f6a41386f" ON "giftcard_transaction" ("order_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_b77257a4923b344d82fa24a99ed" FOREIGN KEY ("event_id")
        REFERENCES "event"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_226186a571647b150f6a41386f2" FOREIGN KEY ("order_id")
        REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_c3d9b6de8c78f2ba6678db98c81" FOREIGN KEY ("payment_id")
        REFERENCES "order_payment"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_1d64472e516256cdd2e427233e0" FOREIGN KEY ("refund_id")
        REFERENCES "order_refund"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_226186a571647b150f6a41386f"`);
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" DROP COLUMN "refund_id", DROP COLUMN "payment_id",
        DROP COLUMN "order_id", DROP COLUMN "event_id"`,
    );
  }
}
