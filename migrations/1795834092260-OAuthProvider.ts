import { MigrationInterface, QueryRunner } from 'typeorm';

export class OAuthProvider1795834092260 implements MigrationInterface {
  name = 'OAuthProvider1795834092260';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_application" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" character varying(255) NOT NULL, "client_id" character varying(64) NOT NULL, "client_secret_hash" character(64) NOT NULL, "redirect_uris" text array NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b72ba27dc9068990e04ce44e5fa" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_79649d1c9a086f6f038dff0ac6" ON "oauth_application" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_application_client_id" ON "oauth_application" ("client_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_token" ("id" SERIAL NOT NULL, "application_id" integer NOT NULL, "user_id" integer NOT NULL, "authorization_code_id" integer, "access_token_hash" character(64) NOT NULL, "access_expires" TIMESTAMP WITH TIME ZONE NOT NULL, "access_revoked" boolean NOT NULL DEFAULT false, "refresh_token_hash" character(64) NOT NULL, "refresh_revoked" boolean NOT NULL DEFAULT false, "scopes" text array NOT NULL, "organizer_ids" integer array NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7e6a25a3cc4395d1658f5b89c73" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8331c7fc12d5297d18b4096688" ON "oauth_token" ("application_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_c910052e5b11436554a18fa690" ON "oauth_token" ("user_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_481a47cdc29e40ea5f860dff24" ON "oauth_token" ("authorization_code_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_token_access_hash" ON "oauth_token" ("access_token_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_token_refresh_hash" ON "oauth_token" ("refresh_token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_session" ("sid" character varying NOT NULL, "sess" json NOT NULL, "expire" TIMESTAMP(6) NOT NULL, CONSTRAINT "PK_9a3cf3a10834ba31bf8a9defb71" PRIMARY KEY ("sid"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_oauth_session_expire" ON "oauth_session" ("expire") `);
    await queryRunner.query(
      `CREATE TABLE "oauth_login_failure" ("id" SERIAL NOT NULL, "email" character varying(254) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_de5ff00b00b8345a51ae5fc3722" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_login_failure_email" ON "oauth_login_failure" ("email", "created") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_authorization_code" ("id" SERIAL NOT NULL, "application_id" integer NOT NULL, "user_id" integer NOT NULL, "code_hash" character(64) NOT NULL, "redirect_uri" text NOT NULL, "scopes" text array NOT NULL, "organizer_ids" integer array NOT NULL, "code_challenge" character varying(128), "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0bf55695b94d317034bbff8afb9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_58e8e654a236e6811d4b124cf1" ON "oauth_authorization_code" ("application_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_4e3b787aec93ccba0660a3b287" ON "oauth_authorization_code" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_authorization_code_hash" ON "oauth_authorization_code" ("code_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_c551082e028431e8e00fd0b83e" ON "oauth_authorization_code" ("expires") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_application" ADD CONSTRAINT "FK_79649d1c9a086f6f038dff0ac66" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_token" ADD CONSTRAINT "FK_8331c7fc12d5297d18b4096688a" FOREIGN KEY ("application_id") REFERENCES "oauth_application"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_token" ADD CONSTRAINT "FK_c910052e5b11436554a18fa6904" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_authorization_code" ADD CONSTRAINT "FK_58e8e654a236e6811d4b124cf1f" FOREIGN KEY ("application_id") REFERENCES "oauth_application"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_authorization_code" ADD CONSTRAINT "FK_4e3b787aec93ccba0660a3b287f" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth_authorization_code" DROP CONSTRAINT "FK_4e3b787aec93ccba0660a3b287f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_authorization_code" DROP CONSTRAINT "FK_58e8e654a236e6811d4b124cf1f"`,
    );
    await queryRunner.query(`ALTER TABLE "oauth_token" DROP CONSTRAINT "FK_c910052e5b11436554a18fa6904"`);
    await queryRunner.query(`ALTER TABLE "oauth_token" DROP CONSTRAINT "FK_8331c7fc12d5297d18b4096688a"`);
    await queryRunner.query(
      `ALTER TABLE "oauth_application" DROP CONSTRAINT "FK_79649d1c9a086f6f038dff0ac66"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_c551082e028431e8e00fd0b83e"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_authorization_code_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_4e3b787aec93ccba0660a3b287"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_58e8e654a236e6811d4b124cf1"`);
    await queryRunner.query(`DROP TABLE "oauth_authorization_code"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_login_failure_email"`);
    await queryRunner.query(`DROP TABLE "oauth_login_failure"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_session_expire"`);
    await queryRunner.query(`DROP TABLE "oauth_session"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_token_refresh_hash"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_token_access_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_481a47cdc29e40ea5f860dff24"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c910052e5b11436554a18fa690"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8331c7fc12d5297d18b4096688"`);
    await queryRunner.query(`DROP TABLE "oauth_token"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_application_client_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_79649d1c9a086f6f038dff0ac6"`);
    await queryRunner.query(`DROP TABLE "oauth_application"`);
  }
}
