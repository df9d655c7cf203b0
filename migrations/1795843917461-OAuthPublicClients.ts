/**
 * Public OAuth clients (README "Security"): `confidential = false` clients have no usable secret and must use
 * PKCE.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OAuthPublicClients1795843917461 implements MigrationInterface {
  name = 'OAuthPublicClients1795843917461';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth_application" ADD "confidential" boolean NOT NULL DEFAULT true`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_application" DROP COLUMN "confidential"`);
  }
}
