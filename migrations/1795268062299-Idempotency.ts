/** Stored responses for X-Idempotency-Key (compat §1.8). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Idempotency1795268062299 implements MigrationInterface {
  name = 'Idempotency1795268062299';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_record" ("id" BIGSERIAL NOT NULL, "credential_hash" character(64) NOT NULL, "key" character varying(255) NOT NULL, "fingerprint" character(64) NOT NULL, "status" integer, "headers" jsonb NOT NULL DEFAULT '{}', "body" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_0dc165e218120167e4a55dcc8d4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a4f614836406f52879b9d331f8" ON "idempotency_record" ("expires") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_idempotency_credential_key" ON "idempotency_record" ("credential_hash", "key") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_idempotency_credential_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a4f614836406f52879b9d331f8"`);
    await queryRunner.query(`DROP TABLE "idempotency_record"`);
  }
}
