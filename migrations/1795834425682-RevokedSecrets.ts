/** Revoked ticket secrets (compat §4.4 `regenerate_secrets`, §3.21 reason `revoked`). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class RevokedSecrets1795834425682 implements MigrationInterface {
  name = 'RevokedSecrets1795834425682';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "revoked_secret" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "position_id" integer NOT NULL, "secret" character varying(190) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a58958ec67cfeeff9a35a5bd415" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0f47c89dbdebd89873426c4d7e" ON "revoked_secret" ("position_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_revoked_secret_event_secret" ON "revoked_secret" ("event_id", "secret") `,
    );
    await queryRunner.query(
      `ALTER TABLE "revoked_secret" ADD CONSTRAINT "FK_b21dadc24d105d922ca8824ad81" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "revoked_secret" ADD CONSTRAINT "FK_0f47c89dbdebd89873426c4d7e1" FOREIGN KEY ("position_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "revoked_secret" DROP CONSTRAINT "FK_0f47c89dbdebd89873426c4d7e1"`);
    await queryRunner.query(`ALTER TABLE "revoked_secret" DROP CONSTRAINT "FK_b21dadc24d105d922ca8824ad81"`);
    await queryRunner.query(`DROP INDEX "public"."ix_revoked_secret_event_secret"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0f47c89dbdebd89873426c4d7e"`);
    await queryRunner.query(`DROP TABLE "revoked_secret"`);
  }
}
