/**
 * Idempotency records bound to their write's commit (README "Idempotent writes"): `committed` and the created
 * `reference`.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyCommitted1796531025841 implements MigrationInterface {
  name = 'IdempotencyCommitted1796531025841';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_record" ADD "committed" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`ALTER TABLE "idempotency_record" ADD "reference" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "idempotency_record" DROP COLUMN "reference"`);
    await queryRunner.query(`ALTER TABLE "idempotency_record" DROP COLUMN "committed"`);
  }
}
