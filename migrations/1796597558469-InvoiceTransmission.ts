/**
 * Invoice fields of pretix 2025.6: the recipient's kind and transmission info, and the transmission (type,
 * provider, status, date, internal record), plus the outbox mail an e-mail transmission waits for. Invoices made
 * before get `unknown` as pretix shows them; new ones start `pending`.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class InvoiceTransmission1796597558469 implements MigrationInterface {
  name = 'InvoiceTransmission1796597558469';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoice" ADD "invoice_to_is_business" boolean`);
    await queryRunner.query(`ALTER TABLE "invoice" ADD "invoice_to_transmission_info" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(
      `ALTER TABLE "invoice" ADD "transmission_type" character varying(64) NOT NULL DEFAULT 'email'`,
    );
    await queryRunner.query(`ALTER TABLE "invoice" ADD "transmission_provider" character varying(64)`);
    // Existing invoices: `unknown` (pretix's value for invoices from before transmission existed).
    await queryRunner.query(
      `ALTER TABLE "invoice" ADD "transmission_status" character varying(16) NOT NULL DEFAULT 'unknown'`,
    );
    await queryRunner.query(`ALTER TABLE "invoice" ALTER COLUMN "transmission_status" SET DEFAULT 'pending'`);
    await queryRunner.query(`ALTER TABLE "invoice" ADD "transmission_date" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "invoice" ADD "transmission_info" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "invoice" ADD "transmission_mail_id" integer`);
    await queryRunner.query(
      `CREATE INDEX "IDX_d59f96f9deae8e5c8b8fe37a8a" ON "invoice" ("transmission_mail_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_d59f96f9deae8e5c8b8fe37a8a"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_mail_id"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_info"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_date"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_status"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_provider"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "transmission_type"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "invoice_to_transmission_info"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "invoice_to_is_business"`);
  }
}
