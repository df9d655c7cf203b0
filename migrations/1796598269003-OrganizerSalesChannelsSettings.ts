/**
 * Organizer sales channels (`O/saleschannels/`; the built-in `web` and `api` channels for every existing
 * organizer), organizer settings (`O/settings/`) and the sales channel fields of events.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrganizerSalesChannelsSettings1796598269003 implements MigrationInterface {
  name = 'OrganizerSalesChannelsSettings1796598269003';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "organizer_settings" ("organizer_id" integer NOT NULL, "values" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_1a4f9e52c4a5c1aed1260e4f99d" PRIMARY KEY ("organizer_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "sales_channel" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "identifier" character varying(200) NOT NULL, "type" character varying(200) NOT NULL, "label" jsonb NOT NULL, "position" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_d1eb0b923ea5a0eb1e0916191f1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_sales_channel_identifier" ON "sales_channel" ("organizer_id", "identifier") `,
    );
    await queryRunner.query(`ALTER TABLE "event" ADD "all_sales_channels" boolean NOT NULL DEFAULT true`);
    await queryRunner.query(
      `ALTER TABLE "event" ADD "limit_sales_channels" text array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query(
      `ALTER TABLE "organizer_settings" ADD CONSTRAINT "FK_1a4f9e52c4a5c1aed1260e4f99d" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "sales_channel" ADD CONSTRAINT "FK_806f756328ce52779be62761ca2" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The built-in channels of every organizer (new organizers get them from OrganizersService.ensure).
    await queryRunner.query(
      `INSERT INTO "sales_channel" ("organizer_id", "identifier", "type", "label", "position")
       SELECT o.id, c.identifier, c.type, c.label::jsonb, 0 FROM "organizer" o
       CROSS JOIN (VALUES ('web', 'web', '{"en": "Online shop"}'), ('api', 'api', '{"en": "API"}')) AS c(identifier, type, label)
       ON CONFLICT DO NOTHING`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sales_channel" DROP CONSTRAINT "FK_806f756328ce52779be62761ca2"`);
    await queryRunner.query(
      `ALTER TABLE "organizer_settings" DROP CONSTRAINT "FK_1a4f9e52c4a5c1aed1260e4f99d"`,
    );
    await queryRunner.query(`ALTER TABLE "event" DROP COLUMN "limit_sales_channels"`);
    await queryRunner.query(`ALTER TABLE "event" DROP COLUMN "all_sales_channels"`);
    await queryRunner.query(`DROP INDEX "public"."uq_sales_channel_identifier"`);
    await queryRunner.query(`DROP TABLE "sales_channel"`);
    await queryRunner.query(`DROP TABLE "organizer_settings"`);
  }
}
