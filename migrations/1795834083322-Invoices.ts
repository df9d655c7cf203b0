/**
 * Invoices (compat §3.24; README "Invoices"): `invoice` (number unique per event, lines and texts as JSON, the
 * PDF's stored file and render generation), `invoice_counter` (the last number per event and prefix, incremented
 * in the invoice's transaction: gap-free and unique), `invoice_settings` (the `E/settings/` keys that were set).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1795834083322 implements MigrationInterface {
  name = 'Invoices1795834083322';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "invoice" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "event_id" integer NOT NULL, "order_id" integer NOT NULL, "order_code" character varying(16) NOT NULL, "prefix" character varying(160) NOT NULL, "invoice_no" integer NOT NULL, "number" character varying(190) NOT NULL, "is_cancellation" boolean NOT NULL DEFAULT false, "canceled" boolean NOT NULL DEFAULT false, "refers_id" integer, "date" date NOT NULL, "locale" character varying(50) NOT NULL, "currency" character varying(10) NOT NULL, "texts" jsonb NOT NULL, "lines" jsonb NOT NULL, "pdf_file_id" uuid, "pdf_generation" integer NOT NULL DEFAULT '1', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15d25c200d9bcd8a33f698daf18" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_957a40c7af068937db6f08d533" ON "invoice" ("organizer_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_1e74a9888e5e228184769ba3df" ON "invoice" ("order_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_398000073bf338bc352bbf3f01" ON "invoice" ("refers_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_invoice_event_number" ON "invoice" ("event_id", "number") `,
    );
    await queryRunner.query(
      `CREATE TABLE "invoice_settings" ("event_id" integer NOT NULL, "values" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_ddaeed6e29c34a866e337b93216" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "invoice_counter" ("event_id" integer NOT NULL, "prefix" character varying(160) NOT NULL, "last_no" integer NOT NULL, CONSTRAINT "PK_93eb826c23296fa99ff2b5a664a" PRIMARY KEY ("event_id", "prefix"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice" ADD CONSTRAINT "FK_f4b184165e5ef7d315ccff5d700" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice" ADD CONSTRAINT "FK_1e74a9888e5e228184769ba3dfd" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice" ADD CONSTRAINT "FK_398000073bf338bc352bbf3f01e" FOREIGN KEY ("refers_id") REFERENCES "invoice"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice_settings" ADD CONSTRAINT "FK_ddaeed6e29c34a866e337b93216" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice_counter" ADD CONSTRAINT "FK_ce4b28d00909054aa03082296c0" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invoice_counter" DROP CONSTRAINT "FK_ce4b28d00909054aa03082296c0"`);
    await queryRunner.query(
      `ALTER TABLE "invoice_settings" DROP CONSTRAINT "FK_ddaeed6e29c34a866e337b93216"`,
    );
    await queryRunner.query(`ALTER TABLE "invoice" DROP CONSTRAINT "FK_398000073bf338bc352bbf3f01e"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP CONSTRAINT "FK_1e74a9888e5e228184769ba3dfd"`);
    await queryRunner.query(`ALTER TABLE "invoice" DROP CONSTRAINT "FK_f4b184165e5ef7d315ccff5d700"`);
    await queryRunner.query(`DROP TABLE "invoice_counter"`);
    await queryRunner.query(`DROP TABLE "invoice_settings"`);
    await queryRunner.query(`DROP INDEX "public"."uq_invoice_event_number"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_398000073bf338bc352bbf3f01"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1e74a9888e5e228184769ba3df"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_957a40c7af068937db6f08d533"`);
    await queryRunner.query(`DROP TABLE "invoice"`);
  }
}
