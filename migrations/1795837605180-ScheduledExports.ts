import { MigrationInterface, QueryRunner } from 'typeorm';

export class ScheduledExports1795837605180 implements MigrationInterface {
  name = 'ScheduledExports1795837605180';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scheduled_export" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "event_id" integer, "owner_id" integer NOT NULL, "export_identifier" character varying(190) NOT NULL, "export_form_data" jsonb NOT NULL DEFAULT '{}', "locale" character varying(16) NOT NULL DEFAULT 'en', "mail_additional_recipients" text NOT NULL DEFAULT '', "mail_additional_recipients_cc" text NOT NULL DEFAULT '', "mail_additional_recipients_bcc" text NOT NULL DEFAULT '', "mail_subject" character varying(255) NOT NULL DEFAULT '', "mail_template" text NOT NULL DEFAULT '', "schedule_rrule" text NOT NULL, "schedule_rrule_time" TIME NOT NULL, "timezone" character varying(64) NOT NULL DEFAULT 'UTC', "schedule_next_run" TIMESTAMP WITH TIME ZONE, "error_counter" integer NOT NULL DEFAULT '0', "running_task_id" uuid, CONSTRAINT "PK_3073e0df0dcb3381faf84491dac" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_42c21b43a4bac9afd55aef5ddf" ON "scheduled_export" ("organizer_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_53a5b47817eff72194fedb3ea0" ON "scheduled_export" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_3b4c5ab5fff0188025ba8306be" ON "scheduled_export" ("owner_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_scheduled_export_due" ON "scheduled_export" ("schedule_next_run") WHERE error_counter < 5`,
    );
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" ADD CONSTRAINT "FK_42c21b43a4bac9afd55aef5ddfe" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" ADD CONSTRAINT "FK_53a5b47817eff72194fedb3ea04" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" ADD CONSTRAINT "FK_3b4c5ab5fff0188025ba8306be4" FOREIGN KEY ("owner_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" DROP CONSTRAINT "FK_3b4c5ab5fff0188025ba8306be4"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" DROP CONSTRAINT "FK_53a5b47817eff72194fedb3ea04"`,
    );
    await queryRunner.query(
      `ALTER TABLE "scheduled_export" DROP CONSTRAINT "FK_42c21b43a4bac9afd55aef5ddfe"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_scheduled_export_due"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3b4c5ab5fff0188025ba8306be"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_53a5b47817eff72194fedb3ea0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_42c21b43a4bac9afd55aef5ddf"`);
    await queryRunner.query(`DROP TABLE "scheduled_export"`);
  }
}
