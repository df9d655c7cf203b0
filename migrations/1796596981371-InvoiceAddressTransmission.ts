/** Invoice transmission settings on invoice addresses (pretix 2025.6: `transmission_type`, `transmission_info`). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class InvoiceAddressTransmission1796596981371 implements MigrationInterface {
  name = 'InvoiceAddressTransmission1796596981371';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "invoice_address" ADD "transmission_type" character varying(255) NOT NULL DEFAULT 'email'`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice_address" ADD "transmission_info" jsonb NOT NULL DEFAULT '{}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoice_address" DROP COLUMN "transmission_info"`);
    await queryRunner.query(`ALTER TABLE "invoice_address" DROP COLUMN "transmission_type"`);
  }
}
