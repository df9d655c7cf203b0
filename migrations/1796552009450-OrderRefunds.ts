/** The refunds of orders (pretix doc "Order refund endpoints"): table order_refund, local_id per order. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderRefunds1796552009450 implements MigrationInterface {
  name = 'OrderRefunds1796552009450';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "order_refund" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "local_id" integer NOT NULL, "state" character varying(20) NOT NULL, "source" character varying(20) NOT NULL, "amount" numeric(13,2) NOT NULL, "payment_id" integer, "provider" character varying(100) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "execution_date" TIMESTAMP WITH TIME ZONE, "comment" text, "info" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_312fcfa56a940659b659e400b7e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_order_refund_payment" ON "order_refund" ("payment_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_order_refund_local_id" ON "order_refund" ("order_id", "local_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "order_refund" ADD CONSTRAINT "FK_a2894526202be47872510866d71" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_refund" ADD CONSTRAINT "FK_41b8b19d60ce036fcc00b0cd26a" FOREIGN KEY ("payment_id") REFERENCES "order_payment"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_refund" DROP CONSTRAINT "FK_41b8b19d60ce036fcc00b0cd26a"`);
    await queryRunner.query(`ALTER TABLE "order_refund" DROP CONSTRAINT "FK_a2894526202be47872510866d71"`);
    await queryRunner.query(`DROP INDEX "public"."uq_order_refund_local_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_order_refund_payment"`);
    await queryRunner.query(`DROP TABLE "order_refund"`);
  }
}
