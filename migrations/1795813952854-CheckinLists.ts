/** Check-in lists (compat §3.20), their products, and what scans record (compat §3.21, §3.22). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckinLists1795813952854 implements MigrationInterface {
  name = 'CheckinLists1795813952854';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "checkin_list" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" character varying(190) NOT NULL, "all_products" boolean NOT NULL DEFAULT false, "subevent_id" integer, "include_pending" boolean NOT NULL DEFAULT false, "allow_multiple_entries" boolean NOT NULL DEFAULT false, "allow_entry_after_exit" boolean NOT NULL DEFAULT true, "addon_match" boolean NOT NULL DEFAULT false, "exit_all_at" TIMESTAMP WITH TIME ZONE, "rules" jsonb NOT NULL DEFAULT '{}', "ignore_in_statistics" boolean NOT NULL DEFAULT false, "consider_tickets_used" boolean NOT NULL DEFAULT true, "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eedaf2d1048002cc3575d986bc1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_3b06c9fcbab1dafe3afa61f26e" ON "checkin_list" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "checkin_list_item" ("list_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_849ca2b6a4713f1e42041a9ddc0" PRIMARY KEY ("list_id", "item_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0ec60e1a1a38f5dfdbcbbb8307" ON "checkin_list_item" ("item_id") `,
    );
    await queryRunner.query(`ALTER TABLE "checkin" ADD "event_id" integer`);
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`,
    );
    await queryRunner.query(`ALTER TABLE "checkin" ADD "error_reason" character varying(50)`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "error_explanation" text`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "forced" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "auto_checked_in" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "nonce" character varying(190)`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "raw_barcode" text`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "raw_source_type" character varying(50)`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "raw_item_id" integer`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "raw_variation_id" integer`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "raw_subevent_id" integer`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP CONSTRAINT "FK_b39360eee7cb970130e279404c9"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkin_position_time"`);
    await queryRunner.query(`ALTER TABLE "checkin" ALTER COLUMN "position_id" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_3026426f707fb1d586dcb06f5a" ON "checkin" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_eedaf2d1048002cc3575d986bc" ON "checkin" ("list_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_checkin_position_time" ON "checkin" ("position_id", "datetime") `,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin_list" ADD CONSTRAINT "FK_3b06c9fcbab1dafe3afa61f26e4" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin_list_item" ADD CONSTRAINT "FK_3f2999d25adef859685288f2f44" FOREIGN KEY ("list_id") REFERENCES "checkin_list"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin_list_item" ADD CONSTRAINT "FK_0ec60e1a1a38f5dfdbcbbb83071" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD CONSTRAINT "FK_b39360eee7cb970130e279404c9" FOREIGN KEY ("position_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD CONSTRAINT "FK_3026426f707fb1d586dcb06f5a0" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD CONSTRAINT "FK_eedaf2d1048002cc3575d986bc1" FOREIGN KEY ("list_id") REFERENCES "checkin_list"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // A nonce is stored once per list among successful scans, and once among failed ones (compat §3.21).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_ok" ON "checkin" ("list_id", "nonce") WHERE successful AND nonce IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_failed" ON "checkin" ("list_id", "nonce") WHERE NOT successful AND nonce IS NOT NULL`,
    );
    await queryRunner.query(
      `UPDATE "checkin" c SET event_id = p.event_id FROM order_position p WHERE p.id = c.position_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_failed"`);
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_ok"`);
    await queryRunner.query(`DELETE FROM "checkin" WHERE position_id IS NULL`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP CONSTRAINT "FK_eedaf2d1048002cc3575d986bc1"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP CONSTRAINT "FK_3026426f707fb1d586dcb06f5a0"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP CONSTRAINT "FK_b39360eee7cb970130e279404c9"`);
    await queryRunner.query(
      `ALTER TABLE "checkin_list_item" DROP CONSTRAINT "FK_0ec60e1a1a38f5dfdbcbbb83071"`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin_list_item" DROP CONSTRAINT "FK_3f2999d25adef859685288f2f44"`,
    );
    await queryRunner.query(`ALTER TABLE "checkin_list" DROP CONSTRAINT "FK_3b06c9fcbab1dafe3afa61f26e4"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkin_position_time"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eedaf2d1048002cc3575d986bc"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3026426f707fb1d586dcb06f5a"`);
    await queryRunner.query(`ALTER TABLE "checkin" ALTER COLUMN "position_id" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ix_checkin_position_time" ON "checkin" ("position_id", "datetime") `,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD CONSTRAINT "FK_b39360eee7cb970130e279404c9" FOREIGN KEY ("position_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "raw_subevent_id"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "raw_variation_id"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "raw_item_id"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "raw_source_type"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "raw_barcode"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "nonce"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "auto_checked_in"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "forced"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "error_explanation"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "error_reason"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "created"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "event_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0ec60e1a1a38f5dfdbcbbb8307"`);
    await queryRunner.query(`DROP TABLE "checkin_list_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3b06c9fcbab1dafe3afa61f26e"`);
    await queryRunner.query(`DROP TABLE "checkin_list"`);
  }
}
