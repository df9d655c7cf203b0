/** Async tasks and stored files (tasks/), SMTP delivery state of the mail outbox (attempts, next attempt, attachments). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class TasksAndMail1795461992886 implements MigrationInterface {
  name = 'TasksAndMail1795461992886';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stored_file" ("id" uuid NOT NULL, "kind" character varying(32) NOT NULL, "filename" character varying(255) NOT NULL, "content_type" character varying(127) NOT NULL, "content" bytea NOT NULL, "size" integer NOT NULL, "organizer_id" integer, "task_id" uuid, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_e140967af84027b493a3ff04fbb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_8c1231aac3168a106094f9fce5" ON "stored_file" ("task_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_fc12b758c128d5d1c2641e9d08" ON "stored_file" ("expires") `);
    await queryRunner.query(
      `CREATE TABLE "async_task" ("id" uuid NOT NULL, "kind" character varying(64) NOT NULL, "queue" character varying(32) NOT NULL, "credential_kind" character varying(16) NOT NULL, "credential_id" integer NOT NULL, "organizer_id" integer, "event_id" integer, "state" character varying(10) NOT NULL DEFAULT 'waiting', "input" jsonb NOT NULL DEFAULT '{}', "message" text, "result_file_id" uuid, "progress" smallint, "attempts" integer NOT NULL DEFAULT '0', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started" TIMESTAMP WITH TIME ZONE, "finished" TIMESTAMP WITH TIME ZONE, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2abd0fb791b01a31c8c68720383" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_03e1652ba35634f2acdb1c0124" ON "async_task" ("expires") `);
    await queryRunner.query(
      `CREATE INDEX "ix_async_task_state_started" ON "async_task" ("state", "started") `,
    );
    await queryRunner.query(`ALTER TABLE "outgoing_mail" ADD "attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "outgoing_mail" ADD "next_attempt" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "outgoing_mail" ADD "attachments" jsonb NOT NULL DEFAULT '[]'`);
    // Mails queued before delivery existed are due at once.
    await queryRunner.query(
      `UPDATE "outgoing_mail" SET "next_attempt" = "created" WHERE "status" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_outgoing_mail_due" ON "outgoing_mail" ("status", "next_attempt") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_outgoing_mail_organizer_created" ON "outgoing_mail" ("organizer_id", "created") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_outgoing_mail_organizer_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_outgoing_mail_due"`);
    await queryRunner.query(`ALTER TABLE "outgoing_mail" DROP COLUMN "attachments"`);
    await queryRunner.query(`ALTER TABLE "outgoing_mail" DROP COLUMN "next_attempt"`);
    await queryRunner.query(`ALTER TABLE "outgoing_mail" DROP COLUMN "attempts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_async_task_state_started"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_03e1652ba35634f2acdb1c0124"`);
    await queryRunner.query(`DROP TABLE "async_task"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fc12b758c128d5d1c2641e9d08"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8c1231aac3168a106094f9fce5"`);
    await queryRunner.query(`DROP TABLE "stored_file"`);
  }
}
