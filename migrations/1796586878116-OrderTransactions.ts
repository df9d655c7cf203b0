/**
 * The order transaction log (pretix 2025.7 "Transactions", `E/transactions/`, `O/transactions/`): table
 * `order_transaction`, written by `OrderTransactionLog.sync` in the transaction of every order change.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderTransactions1796586878116 implements MigrationInterface {
  name = 'OrderTransactions1796586878116';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "order_transaction" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL,
        "event_id" integer NOT NULL, "organizer_id" integer NOT NULL,
        "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "datetime" TIMESTAMP WITH TIME ZONE NOT NULL,
        "migrated" boolean NOT NULL DEFAULT false, "positionid" integer, "count" integer NOT NULL,
        "item_id" integer, "variation_id" integer, "subevent_id" integer, "price" numeric(13,2) NOT NULL,
        "tax_rate" numeric(10,2) NOT NULL, "tax_rule_id" integer, "tax_code" character varying(190),
        "tax_value" numeric(13,2) NOT NULL, "fee_type" character varying(100), "internal_type" character varying(255),
        CONSTRAINT "PK_d1c3a07f8a0cb7044b57cfe5f35" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_94ac74479abc1429e2cea7f89c" ON "order_transaction" ("order_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_order_transaction_organizer_datetime" ON "order_transaction" ("organizer_id", "datetime", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_order_transaction_event_datetime" ON "order_transaction" ("event_id", "datetime", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "order_transaction" ADD CONSTRAINT "FK_94ac74479abc1429e2cea7f89ce" FOREIGN KEY ("order_id")
        REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_transaction" ADD CONSTRAINT "FK_071cd0e3a29ad7abd1c49ad28d9" FOREIGN KEY ("event_id")
        REFERENCES "event"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "order_transaction"`);
  }
}
