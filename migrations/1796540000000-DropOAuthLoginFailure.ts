/**
 * Login attempts are counted in Redis before the password check (README "Security"), so the table of failed logins
 * the throttle used to count is no longer written or read.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class DropOAuthLoginFailure1796540000000 implements MigrationInterface {
  name = 'DropOAuthLoginFailure1796540000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_login_failure_email"`);
    await queryRunner.query(`DROP TABLE "oauth_login_failure"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_login_failure" ("id" SERIAL NOT NULL, "email" character varying(254) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_de5ff00b00b8345a51ae5fc3722" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_login_failure_email" ON "oauth_login_failure" ("email", "created") `,
    );
  }
}
