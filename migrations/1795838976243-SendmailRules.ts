/** Scheduled e-mail rules (compat §3.26) and the record of the mails they sent (one per rule and recipient). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class SendmailRules1795838976243 implements MigrationInterface {
  name = 'SendmailRules1795838976243';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sendmail_rule" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "subject" jsonb NOT NULL, "template" jsonb NOT NULL, "all_products" boolean NOT NULL DEFAULT true, "limit_products" integer array NOT NULL DEFAULT '{}', "restrict_to_status" text array NOT NULL, "checked_in_status" character varying(20), "date_is_absolute" boolean NOT NULL DEFAULT true, "send_date" TIMESTAMP WITH TIME ZONE, "send_offset_days" integer, "send_offset_time" character varying(5), "offset_to_event_end" boolean NOT NULL DEFAULT false, "offset_is_after" boolean NOT NULL DEFAULT false, "send_to" character varying(20) NOT NULL DEFAULT 'orders', CONSTRAINT "PK_2103bb50fbf4d57422878acf8b0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_2e023b78a495201ab8f9434f2e" ON "sendmail_rule" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "sendmail_rule_delivery" ("id" SERIAL NOT NULL, "rule_id" integer NOT NULL, "target" character varying(40) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_sendmail_rule_delivery_target" UNIQUE ("rule_id", "target"), CONSTRAINT "PK_c127d16df830d1d0e55c5fdced8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "sendmail_rule" ADD CONSTRAINT "FK_2e023b78a495201ab8f9434f2e6" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sendmail_rule_delivery" ADD CONSTRAINT "FK_063813e197af94a9e1afcadbe1a" FOREIGN KEY ("rule_id") REFERENCES "sendmail_rule"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "sendmail_rule_delivery" DROP CONSTRAINT "FK_063813e197af94a9e1afcadbe1a"`,
    );
    await queryRunner.query(`ALTER TABLE "sendmail_rule" DROP CONSTRAINT "FK_2e023b78a495201ab8f9434f2e6"`);
    await queryRunner.query(`DROP TABLE "sendmail_rule_delivery"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2e023b78a495201ab8f9434f2e"`);
    await queryRunner.query(`DROP TABLE "sendmail_rule"`);
  }
}
