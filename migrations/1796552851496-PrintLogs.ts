/**
 * Print logs of order positions (pretix "Order position endpoints" `printlog`; the position's `print_logs`).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class PrintLogs1796552851496 implements MigrationInterface {
  name = 'PrintLogs1796552851496';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "print_log" ("id" SERIAL NOT NULL, "position_id" integer NOT NULL,
        "successful" boolean NOT NULL DEFAULT true, "datetime" TIMESTAMP WITH TIME ZONE NOT NULL,
        "source" character varying(255) NOT NULL, "type" character varying(255) NOT NULL,
        "info" jsonb NOT NULL DEFAULT '{}', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_fda037c70b9b7b6c16ee085ed25" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_9922c2637b45936c84e858e8ee" ON "print_log" ("position_id") `);
    await queryRunner.query(
      `ALTER TABLE "print_log" ADD CONSTRAINT "FK_9922c2637b45936c84e858e8ee2" FOREIGN KEY ("position_id")
        REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "print_log"`);
  }
}
